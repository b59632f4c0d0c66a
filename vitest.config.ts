import path from "node:path";
import { defineConfig } from "vitest/config";

// `server-only` throws unless resolved with the react-server condition, which only Next's server
// bundles set; tests import server modules directly, so it resolves to the package's empty module
// (as scripts/lib/server-only.mjs does for the npm scripts).
const alias = { "@": path.resolve(import.meta.dirname), "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js") };

// unit: plain functions and the embedded database server, no app.
// integration: real HTTP against the service started by test/integration/global-setup.ts, on
// PostgreSQL when DATABASE_URL is given and on the embedded default otherwise.
export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      { resolve: { alias }, test: { name: "unit", include: ["test/unit/**/*.test.ts"], testTimeout: 30_000 } },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          globalSetup: ["test/integration/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
