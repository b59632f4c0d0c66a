import fs from "node:fs";
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

// Which integration files start processes of their own (an app server, a worker, a PostgreSQL
// database, a CLI run against a data dir): those that say so with `// @module-tag processes`, and
// any file that calls one of the helpers that start them (so a new file lands in the right project
// without anyone remembering the tag). Each such file starts what it needs on ports, databases and
// data dirs of its own, and mostly waits on its processes, so several run at once
// (TEST_PROCESS_WORKERS, default 3); the few that need the machine to themselves (a fleet killed
// midway, a database killed under load, with bounds on how soon things recover) say so with
// `// @module-tag alone` and run after them, one at a time. Every other file only talks to the
// suite's shared service and runs in parallel with the rest (docs/testing.md#projects).
const integrationDir = path.join(import.meta.dirname, "test", "integration");
const STARTS_PROCESSES =
  /@module-tag (processes|alone)\b|\b(launchService|startOwnService|startWorkerProcess|startWorker|deliveryDatabase|startService|spawn|spawnSync|execFile|execFileSync)\(/;
const ALONE = /@module-tag alone\b/;
const integrationFiles = fs
  .readdirSync(integrationDir, { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".test.ts"))
  .map((f) => ({ file: `test/integration/${f}`, text: fs.readFileSync(path.join(integrationDir, f), "utf8") }));
const processFiles = integrationFiles.filter((f) => STARTS_PROCESSES.test(f.text)).map((f) => f.file);
const aloneFiles = integrationFiles.filter((f) => ALONE.test(f.text)).map((f) => f.file);

// Parallel files on the shared service: TEST_WORKERS, by default 3 on PostgreSQL (the shared
// project there, quiet machine: 2 workers 89 s, 3 workers 74 s, 4 workers 77 s) and 2 on the
// embedded database, whose one session serves one transaction at a time (a third file would only
// queue); process files at once: TEST_PROCESS_WORKERS (default 3). Measured in
// docs/testing.md#time-budget.
const workers = Number(process.env.TEST_WORKERS) || (process.env.DATABASE_URL ? 3 : 2);
const processWorkers = Number(process.env.TEST_PROCESS_WORKERS) || 3;
const orNone = (files: string[]) => (files.length > 0 ? files : ["test/integration/none"]);

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
// integration: real HTTP against the service started by test/integration/global-setup.ts, on
// PostgreSQL when DATABASE_URL is given and on the embedded default otherwise; files in parallel.
// integration-processes: the files that start processes of their own, a few at a time; then
// integration-alone: those of them that need the machine to themselves, one at a time (run in
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
      {
        name: "processes",
        description: "starts processes of its own: runs in the integration-processes project, a few files at a time",
      },
      {
        name: "alone",
        description:
          "starts processes and needs the machine to itself: runs in the integration-alone project, one file at a time, after the others",
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
          include: orNone(processFiles.filter((f) => !aloneFiles.includes(f))),
          maxWorkers: processWorkers,
          sequence: { groupOrder: 1 },
          ...processes,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration-alone",
          include: orNone(aloneFiles),
          fileParallelism: false,
          sequence: { groupOrder: 2 },
          ...processes,
        },
      },
    ],
  },
});
