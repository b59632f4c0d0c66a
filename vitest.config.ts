import path from "node:path";
import { defineConfig } from "vitest/config";

// `server-only` throws unless resolved with the react-server condition, which only Next's server
// bundles set; tests import server modules directly, so it resolves to the package's empty module
// (as scripts/lib/server-only.mjs does for the npm scripts). The client package is imported from its
// source, as tsconfig.json's paths type-check it, so a change in sdk/src needs no rebuild; only the
// tests that run the `wayline` command run its build (docs/sdk.md#how-it-ships).
const alias = {
  "@": path.resolve(import.meta.dirname),
  "@wayline/sdk": path.resolve(import.meta.dirname, "sdk/src/index.ts"),
  "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
};

// An integration file's project is its folder (docs/testing.md#projects): test/integration/shared/
// only talks to the suite's shared services and runs in parallel with the rest; processes/ starts
// processes of its own (an app, a worker, a PostgreSQL cluster, a CLI that keeps running) on ports,
// databases and data dirs of its own, and mostly waits on them, so several run at once
// (TEST_PROCESS_WORKERS, default 3); alone/ holds the few that need the machine to themselves (a
// fleet killed midway, a database killed under load, with bounds on how soon things recover), run
// after them one at a time. test/unit/integration-folders.test.ts reads each file's calls and fails
// when one sits in the wrong folder.
const inFolder = (folder: string) => [`test/integration/${folder}/**/*.test.ts`];

// Parallel files on the shared service: TEST_WORKERS, by default 3 on PostgreSQL (the shared
// project there, quiet machine: 2 workers 89 s, 3 workers 74 s, 4 workers 77 s) and 2 on the
// embedded database, whose one session serves one transaction at a time (a third file would only
// queue); process files at once: TEST_PROCESS_WORKERS (default 3). Measured in
// docs/testing.md#time-budget.
const workers = Number(process.env.TEST_WORKERS) || (process.env.DATABASE_URL ? 3 : 2);
const processWorkers = Number(process.env.TEST_PROCESS_WORKERS) || 3;

// webhook-check-setup fails a test during which the HTTPS receiver got a body outside the event catalog.
// isolate: false: the files a worker runs share its modules (the helpers, the server modules some
// import, Vitest's own), loaded once per worker instead of once per file. Each file still runs its
// own code, hooks and tests; the helpers keep no state a file could leave behind for the next (the
// one shared connection, testSql, is never ended by a file). Measured on the shared project on
// PostgreSQL: 122 → 95 CPU-seconds, 93 → 78 s (docs/testing.md#time-budget).
const integration = {
  globalSetup: ["test/integration/global-setup.ts"],
  setupFiles: ["test/helpers/webhook-check-setup.ts"],
  testTimeout: 30_000,
  hookTimeout: 60_000,
  isolate: false,
};
// Process files wait on processes that share the cores with two other such files: a bound that
// only stops a hung test, never a slow one (a test's own bounds are its assertions).
const processes = { ...integration, testTimeout: 120_000, hookTimeout: 240_000 };

// unit: plain functions and the embedded database server, no app.
// integration (shared/): real HTTP against the services started by test/integration/global-setup.ts,
// on PostgreSQL when DATABASE_URL is given and on the embedded default otherwise; files in parallel.
// integration-processes (processes/): the files that start processes of their own, a few at a time;
// then integration-alone (alone/): those that need the machine to themselves, one at a time (run in
// the same Vitest run, after the others: sequence.groupOrder).
// On the embedded database CI runs the tests tagged `embedded` (`--tags-filter=embedded`), a whole
// file's or single tests': those that exercise what differs there
// (docs/testing.md#which-tests-run-on-the-embedded-database).
export default defineConfig({
  resolve: { alias },
  test: {
    tags: [
      {
        name: "embedded",
        description:
          "exercises what differs on the embedded database: its wire server, NOTIFY, ingest, delivery, migrations, the front door",
      },
    ],
    projects: [
      { resolve: { alias }, test: { name: "unit", include: ["test/unit/**/*.test.ts"], testTimeout: 30_000 } },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: inFolder("shared"),
          maxWorkers: workers,
          ...integration,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration-processes",
          include: inFolder("processes"),
          maxWorkers: processWorkers,
          sequence: { groupOrder: 1 },
          ...processes,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration-alone",
          include: inFolder("alone"),
          fileParallelism: false,
          sequence: { groupOrder: 2 },
          ...processes,
        },
      },
    ],
  },
});
