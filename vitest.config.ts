import fs from "node:fs";
import path from "node:path";
import { defineConfig } from "vitest/config";

// `server-only` throws unless resolved with the react-server condition, which only Next's server
// bundles set; tests import server modules directly, so it resolves to the package's empty module
// (as scripts/lib/server-only.mjs does for the npm scripts).
const alias = {
  "@": path.resolve(import.meta.dirname),
  "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
};

// Which integration files start processes of their own (an app server, a worker, a PostgreSQL
// database, a CLI run against a data dir): those that say so with `// @module-tag processes`, and
// any file that calls one of the helpers that start them (so a new file lands in the right project
// without anyone remembering the tag). They run one file at a time, in a project of their own;
// every other file only talks to the suite's shared service and runs in parallel with the rest
// (docs/testing.md#projects).
const integrationDir = path.join(import.meta.dirname, "test", "integration");
const STARTS_PROCESSES =
  /@module-tag processes\b|\b(launchService|startOwnService|startWorkerProcess|startWorker|deliveryDatabase|startService|spawn|spawnSync|execFile|execFileSync)\(/;
const integrationFiles = fs
  .readdirSync(integrationDir, { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".test.ts"));
const processFiles = integrationFiles
  .filter((f) => STARTS_PROCESSES.test(fs.readFileSync(path.join(integrationDir, f), "utf8")))
  .map((f) => `test/integration/${f}`);

// Parallel files on the shared service: TEST_WORKERS (default 2, measured in docs/testing.md).
const workers = Number(process.env.TEST_WORKERS) || 2;

// webhook-check-setup fails a test during which the HTTPS receiver got a body outside the event catalog.
const integration = {
  globalSetup: ["test/integration/global-setup.ts"],
  setupFiles: ["test/helpers/webhook-check-setup.ts"],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

// unit: plain functions and the embedded database server, no app.
// integration: real HTTP against the service started by test/integration/global-setup.ts, on
// PostgreSQL when DATABASE_URL is given and on the embedded default otherwise; files in parallel.
// integration-processes: the files that start processes of their own, one at a time.
// On the embedded database CI runs the files tagged `embedded` (`--tags-filter=embedded`): those
// that exercise what differs there (docs/testing.md#which-tests-run-on-the-embedded-database).
export default defineConfig({
  resolve: { alias },
  test: {
    tags: [
      {
        name: "embedded",
        description:
          "exercises what differs on the embedded database: its wire server, NOTIFY, ingest, delivery, migrations, the front door",
      },
      {
        name: "processes",
        description: "starts processes of its own: runs in the integration-processes project, one file at a time",
      },
    ],
    projects: [
      { resolve: { alias }, test: { name: "unit", include: ["test/unit/**/*.test.ts"], testTimeout: 30_000 } },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          exclude: processFiles,
          maxWorkers: workers,
          ...integration,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration-processes",
          include: processFiles.length > 0 ? processFiles : ["test/integration/none"],
          fileParallelism: false,
          ...integration,
        },
      },
    ],
  },
});
