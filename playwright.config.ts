import { defineConfig, devices } from "@playwright/test";

// One port for the whole run: the config is evaluated in the runner and in every worker, which
// inherit this variable from the runner. Below Linux's ephemeral range (32768-60999): a port in it
// may be held at that moment by an outgoing connection (a database client's), and the service's
// listen then fails with EADDRINUSE, as it did once in CI on 45430.
process.env.E2E_PORT ??= String(20000 + (process.pid % 9000));
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;

// Debian's Chromium (/usr/bin/chromium, CI installs it when missing): the tests never download a browser.
const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
};

export default defineConfig({
  testDir: "e2e",
  outputDir: "e2e/.artifacts/results",
  globalSetup: "./e2e/global-setup.ts",
  // Files spread over the workers, a file's tests in order in one worker (serial specs build on
  // the test before). Two workers on 2 cores (E2E_WORKERS to compare; docs/testing.md#end-to-end):
  // every test makes its own data, so specs run side by side against the run's services.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  // Ceilings, not waits (web-first assertions return as soon as they hold): twice Playwright's
  // defaults, so a machine busy with other work slows a run down rather than failing it. A
  // check with a deadline of its own (a marker moving within 5 s) keeps its own timeout.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: "e2e/.artifacts/report.json" }]],
  use: {
    baseURL,
    // A failed test leaves its screenshot and its page's accessibility snapshot (error-context.md).
    // No trace by default: recording one for every test, to keep only the failures', cost a run
    // about a tenth of its time (docs/testing.md#end-to-end); `--trace retain-on-failure` records
    // them when chasing a failure. A passing test leaves the screenshots it takes itself (`shot`).
    screenshot: "only-on-failure",
    trace: "off",
    launchOptions: chromium,
  },
  projects: [
    { name: "desktop", use: { ...devices["Desktop Chrome"], launchOptions: chromium } },
    // Only the tests tagged @phone (e2e/support/phone.ts) run again on a Pixel 7: those that check a
    // page at a phone's size, not every journey a second time (docs/testing.md#end-to-end).
    { name: "phone", grep: /@phone/, use: { ...devices["Pixel 7"], launchOptions: chromium } },
  ],
});
