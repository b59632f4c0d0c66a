import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildIsCurrent } from "./lib/build";

// `npm test`: type check and lint (side by side: each keeps one core busy) with the client package's
// build and the unit tests beside them, production build, integration tests (on PostgreSQL when DATABASE_URL is given: every
// file; on the embedded default: the files tagged `embedded`), and the Playwright end-to-end tests.
// The integration tests: one Vitest run a database, the PostgreSQL one side by side with the
// embedded one, each running its files on the shared service (in parallel) and then its files that
// start processes of their own (a few at a time); then the few files that need the machine alone
// (`integration-alone`), one at a time with nothing beside them. Ends with a table of the stages'
// times against their budgets (docs/testing.md#time-budget) and one line "N passed, N failed" over
// all of them; the checks (type check, lint, the builds) count as one test each. TEST_TIMINGS_FILE, when
// set, also receives the stages' times (one "label<TAB>seconds<TAB>budget<TAB>ok|failed" line
// each) for CI's table. TEST_SIDE_BY_SIDE=0 runs everything one after the other (to measure each
// part alone).

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const reports = fs.mkdtempSync(path.join(os.tmpdir(), "wayline-test-"));
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
const baseEnv: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

let passed = 0;
let failed = 0;
/** "file › test: first line of the error" for each failed test, printed again at the very end. */
const failures: string[] = [];
const stages: { label: string; seconds: number; budget: number; ok: boolean }[] = [];
const runStarted = Date.now();

function record(label: string, started: number, budget: number, ok: boolean) {
  const seconds = (Date.now() - started) / 1000;
  stages.push({ label, seconds, budget, ok });
  console.log(`=== ${label}: ${ok ? "ok" : "failed"} in ${seconds.toFixed(1)} s ===`);
}

function runCommand(
  label: string,
  budget: number,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = baseEnv,
): boolean {
  console.log(`\n=== ${label} ===`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, env, stdio: "inherit" });
  record(label, started, budget, result.status === 0);
  return result.status === 0;
}

/** Runs checks side by side, each one's output printed whole when it ends; counts one test each. */
async function checksSideBySide(checks: { label: string; budget: number; command: string; args: string[] }[]) {
  console.log(`\n=== ${checks.map((c) => c.label).join(" and ")} (side by side) ===`);
  await Promise.all(
    checks.map(
      ({ label, budget, command, args }) =>
        new Promise<void>((resolve) => {
          const started = Date.now();
          const child = spawn(command, args, { cwd: root, env: baseEnv, stdio: ["ignore", "pipe", "pipe"] });
          let output = "";
          child.stdout.on("data", (d: Buffer) => (output += d.toString()));
          child.stderr.on("data", (d: Buffer) => (output += d.toString()));
          child.on("close", (code) => {
            console.log(`\n--- ${label}`);
            process.stdout.write(output);
            record(label, started, budget, code === 0);
            if (code === 0) passed += 1;
            else failed += 1;
            resolve();
          });
        }),
    ),
  );
}

function check(label: string, budget: number, command: string, args: string[]) {
  if (runCommand(label, budget, command, args)) passed += 1;
  else failed += 1;
}

type VitestRun = { label: string; budget: number; args: string[]; env: NodeJS.ProcessEnv };

function vitestArgs(run: VitestRun, out: string): string[] {
  return ["run", ...run.args, "--reporter=default", "--reporter=json", `--outputFile.json=${out}`];
}

type VitestReport = {
  numPassedTests: number;
  numFailedTests: number;
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
  }[];
};

const firstLine = (text = "") => text.trim().split("\n")[0]!.slice(0, 200);

const countVitest = (out: string, ok: boolean) =>
  countFrom(out, ok, (r: VitestReport) => {
    for (const file of r.testResults) {
      const where = path.relative(root, file.name);
      const failedTests = file.assertionResults.filter((a) => a.status === "failed");
      for (const a of failedTests) failures.push(`${where} › ${a.fullName}: ${firstLine(a.failureMessages[0])}`);
      // A file that failed outside any test (its setup, an import) names itself.
      if (file.status === "failed" && failedTests.length === 0) failures.push(`${where}: ${firstLine(file.message)}`);
    }
    return [r.numPassedTests, r.numFailedTests];
  });

function vitest(run: VitestRun) {
  const out = path.join(reports, `${stages.length}.json`);
  countVitest(out, runCommand(run.label, run.budget, bin("vitest"), vitestArgs(run, out), run.env));
}

/**
 * One Vitest run in the background, its lines streamed as they come, each prefixed with its tag;
 * its time is its own (other work may overlap it).
 */
function vitestInBackground(run: VitestRun & { tag: string }): Promise<void> {
  return new Promise<void>((resolve) => {
    const out = path.join(reports, `${run.tag}-${stages.length}-${Math.random().toString(36).slice(2)}.json`);
    const started = Date.now();
    const child = spawn(bin("vitest"), vitestArgs(run, out), {
      cwd: root,
      // Piped, Vitest would drop its colours; keep them when this run prints to a terminal.
      env: process.stdout.isTTY ? { ...run.env, FORCE_COLOR: "1" } : run.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const prefix = (stream: NodeJS.ReadableStream, to: NodeJS.WriteStream) => {
      let rest = "";
      stream.on("data", (d: Buffer) => {
        const lines = (rest + d.toString()).split("\n");
        rest = lines.pop()!;
        for (const line of lines) to.write(`[${run.tag}] ${line}\n`);
      });
      stream.on("end", () => rest && to.write(`[${run.tag}] ${rest}\n`));
    };
    prefix(child.stdout, process.stdout);
    prefix(child.stderr, process.stderr);
    child.on("close", (code) => {
      record(run.label, started, run.budget, code === 0);
      countVitest(out, code === 0);
      resolve();
    });
  });
}

/** Vitest runs at once (each as vitestInBackground); with TEST_SIDE_BY_SIDE=0, one after the other. */
async function vitestSideBySide(runs: (VitestRun & { tag: string })[]) {
  if (process.env.TEST_SIDE_BY_SIDE === "0" || runs.length === 1) {
    for (const r of runs) vitest(r);
    return;
  }
  console.log(`\n=== ${runs.map((r) => r.label).join(" ∥ ")} (side by side) ===`);
  await Promise.all(runs.map(vitestInBackground));
}

function countFrom<T>(file: string, ok: boolean, read: (report: T) => [number, number]) {
  try {
    const [p, f] = read(JSON.parse(fs.readFileSync(file, "utf8")) as T);
    passed += p;
    failed += f;
    // A runner that failed without a failing test (a setup error) still fails the run.
    if (!ok && f === 0) failed += 1;
  } catch {
    failed += 1;
  }
}

// Budgets in seconds on a quiet 2-core machine (docs/testing.md#time-budget): a stage over its
// budget is marked in the table, so the test that pushed it there is found while it is new.
// Route types first (before both: knip reads them too): tsc checks route handlers against them. npm run lint: eslint, the arrows
// between folders (.dependency-cruiser.mjs) and knip. The unit tests need neither the build nor a
// service, and keep about half a core busy (measured in a CI run: the machine 45 % idle while they
// ran alone), so they run beside the two checks rather than after them.
const typegen = spawnSync(bin("next"), ["typegen"], { cwd: root, env: baseEnv, stdio: "inherit" });
const checks = checksSideBySide([
  {
    label: "type check",
    budget: 70,
    command: "sh",
    args: ["-c", typegen.status === 0 ? `"${bin("tsc")}" --noEmit` : "echo 'next typegen failed'; exit 1"],
  },
  { label: "lint", budget: 70, command: "npm", args: ["run", "--silent", "lint"] },
  // The client package's build (sdk/dist): the integration tests that run the `wayline` command run it,
  // the others import sdk/src (docs/sdk.md#how-it-ships).
  { label: "client package build", budget: 30, command: "npm", args: ["run", "--silent", "build", "-w", "sdk"] },
]);
const unit = {
  tag: "unit",
  label: "unit tests (beside the type check and lint)",
  budget: 70,
  args: ["--project", "unit"],
  env: baseEnv,
};
if (process.env.TEST_SIDE_BY_SIDE === "0") {
  await checks;
  vitest(unit);
} else await Promise.all([checks, vitestInBackground(unit)]);
// The one build of the run: every service the tests start finds it current (scripts/lib/build.ts).
// In CI the front door's `npm start` built this commit and handed its .next over: not again.
const buildStarted = Date.now();
if (await buildIsCurrent(root)) {
  record("production build: current, not built again (the front door's)", buildStarted, 90, true);
  passed += 1;
} else check("production build", 90, bin("next"), ["build"]);

// Integration: one Vitest run a database, side by side, each holding the shared-service files
// (in parallel) and then the files with processes of their own (a few at a time:
// sequence.groupOrder in vitest.config.ts), on one shared service started once. Neither waits for
// the other between the two parts, so the one that finishes its shared files first goes on to its
// process files while the other is still busy (when each part was a stage of its own, the
// machine sat a third idle at each part's end). Then the files that need the machine alone.
const embeddedEnv = { ...baseEnv };
delete embeddedEnv.DATABASE_URL;
const onPostgres = Boolean(process.env.DATABASE_URL);
const embeddedPass = {
  tag: "embedded",
  label: "integration on embedded (tag embedded): shared service, then own processes",
  budget: 200,
  args: ["--project", "integration", "--project", "integration-processes", "--tags-filter=embedded"],
  env: embeddedEnv,
};
if (onPostgres) {
  await vitestSideBySide([
    {
      tag: "postgres",
      label: "integration on PostgreSQL: shared service, then own processes",
      budget: 270,
      args: ["--project", "integration", "--project", "integration-processes"],
      env: baseEnv,
    },
    embeddedPass,
  ]);
  vitest({
    label: "integration on PostgreSQL: the machine alone, one at a time",
    budget: 70,
    args: ["--project", "integration-alone"],
    env: baseEnv,
  });
} else await vitestSideBySide([embeddedPass]);

const e2eReport = path.join(root, "e2e", ".artifacts", "report.json");
fs.rmSync(e2eReport, { force: true });
const e2eOk = runCommand(
  "end-to-end tests (Playwright, Chromium, two workers)",
  190,
  bin("playwright"),
  ["test"],
  baseEnv,
);
type PlaywrightSuite = {
  file: string;
  specs?: {
    title: string;
    ok: boolean;
    tests: { projectName: string; results: { error?: { message?: string } }[] }[];
  }[];
  suites?: PlaywrightSuite[];
};
function playwrightFailures(suite: PlaywrightSuite) {
  for (const spec of suite.specs ?? [])
    if (!spec.ok)
      for (const t of spec.tests)
        failures.push(
          `${suite.file} › [${t.projectName}] ${spec.title}: ${firstLine(t.results.at(-1)?.error?.message)}`,
        );
  for (const inner of suite.suites ?? []) playwrightFailures(inner);
}
countFrom(
  e2eReport,
  e2eOk,
  (r: { stats: { expected: number; unexpected: number; flaky: number }; suites: PlaywrightSuite[] }) => {
    r.suites.forEach(playwrightFailures);
    return [r.stats.expected + r.stats.flaky, r.stats.unexpected];
  },
);

fs.rmSync(reports, { recursive: true, force: true });
if (process.env.TEST_TIMINGS_FILE)
  fs.appendFileSync(
    process.env.TEST_TIMINGS_FILE,
    stages.map((s) => `${s.label}\t${s.seconds.toFixed(1)}\t${s.budget}\t${s.ok ? "ok" : "failed"}\n`).join(""),
  );
else printTable(stages);
// Named again last, so the tail of a long log says which tests failed (CI prints these lines again).
if (failures.length) console.log(`\n${failures.map((f) => `FAILED TEST ${f}`).join("\n")}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);

function printTable(rows: typeof stages) {
  const [one = 0, five = 0] = os.loadavg();
  console.log(
    `\nStage times (load average now ${one.toFixed(2)}, ${five.toFixed(2)} over 5 min, ${os.cpus().length} cores; budgets hold on a quiet machine)`,
  );
  for (const s of rows)
    console.log(
      `  ${s.label.padEnd(58)} ${s.seconds.toFixed(1).padStart(7)} s  budget ` +
        `${String(s.budget).padStart(4)} s${s.seconds > s.budget ? "  OVER" : ""}${s.ok ? "" : "  FAILED"}`,
    );
  // Wall time: type check and lint overlap.
  console.log(
    `  ${"npm test in all".padEnd(58)} ${((Date.now() - runStarted) / 1000).toFixed(1).padStart(7)} s  budget  600 s`,
  );
}
