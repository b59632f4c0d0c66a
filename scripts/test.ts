import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

// `npm test`: type check, lint, production build, unit tests, integration tests (on PostgreSQL
// when DATABASE_URL is given, then once more on the embedded default) and the Playwright
// end-to-end tests. Ends with one line "N passed, N failed" over all of them; the checks
// (type check, lint, build) count as one test each.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const reports = fs.mkdtempSync(path.join(os.tmpdir(), "wayline-test-"));
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
const baseEnv: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

let passed = 0;
let failed = 0;

function run(label: string, command: string, args: string[], env: NodeJS.ProcessEnv = baseEnv): boolean {
  console.log(`\n=== ${label} ===`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, env, stdio: "inherit" });
  console.log(`=== ${label}: ${result.status === 0 ? "ok" : `failed (${result.status ?? result.signal})`} in ${((Date.now() - started) / 1000).toFixed(1)} s ===`);
  return result.status === 0;
}

function check(label: string, command: string, args: string[]) {
  if (run(label, command, args)) passed += 1;
  else failed += 1;
}

function vitest(label: string, project: string, env: NodeJS.ProcessEnv) {
  const out = path.join(reports, `${project}-${passed + failed}.json`);
  const ok = run(label, bin("vitest"), ["run", "--project", project, "--reporter=default", "--reporter=json", `--outputFile.json=${out}`], env);
  countFrom(out, ok, (r: { numPassedTests: number; numFailedTests: number }) => [r.numPassedTests, r.numFailedTests]);
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

// Route types first: tsc checks route handlers against them.
check("type check", "sh", ["-c", `"${bin("next")}" typegen && "${bin("tsc")}" --noEmit`]);
// npm run lint: eslint, then the arrows between folders (.dependency-cruiser.mjs).
check("lint", "npm", ["run", "--silent", "lint"]);
check("production build", bin("next"), ["build"]);

vitest("unit tests", "unit", baseEnv);
const embeddedEnv = { ...baseEnv };
delete embeddedEnv.DATABASE_URL;
if (process.env.DATABASE_URL) vitest("integration tests on PostgreSQL (DATABASE_URL)", "integration", baseEnv);
vitest("integration tests on the embedded database", "integration", embeddedEnv);

const e2eReport = path.join(root, "e2e", ".artifacts", "report.json");
fs.rmSync(e2eReport, { force: true });
const e2eOk = run("end-to-end tests (Playwright, Chromium)", bin("playwright"), ["test"], baseEnv);
countFrom(e2eReport, e2eOk, (r: { stats: { expected: number; unexpected: number; flaky: number } }) => [r.stats.expected + r.stats.flaky, r.stats.unexpected]);

fs.rmSync(reports, { recursive: true, force: true });
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
