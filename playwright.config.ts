import { defineConfig, devices } from "@playwright/test";

// One port for the whole run: the config is evaluated in the runner and in every worker, which
// inherit this variable from the runner.
process.env.E2E_PORT ??= String(41000 + (process.pid % 9000));
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;

// Debian's Chromium: browsers cannot be downloaded on these machines.
const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
};

/** Specs the phone project runs too: those whose pages are checked for their layout. */
const PHONE_LAYOUT_SPECS = [
  "console-health",
  "console-human",
  "console-partner",
  "docs-reference",
  "driver-a11y",
  "driver-map",
  "home",
  "site-polish",
].map((name) => `**/${name}.spec.ts`);

export default defineConfig({
  testDir: "e2e",
  outputDir: "e2e/.artifacts/results",
  globalSetup: "./e2e/global-setup.ts",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"], ["json", { outputFile: "e2e/.artifacts/report.json" }]],
  use: {
    baseURL,
    screenshot: "on",
    trace: "retain-on-failure",
    launchOptions: chromium,
  },
  projects: [
    { name: "desktop", use: { ...devices["Desktop Chrome"], launchOptions: chromium } },
    // The phone runs the specs that check layout (a page at phone width: menus that fold, the
    // axe checks of every console page, the reference's search behind its menu), not every journey
    // a second time: a journey's steps are the same at any width (docs/testing.md#end-to-end).
    { name: "phone", testMatch: PHONE_LAYOUT_SPECS, use: { ...devices["Pixel 7"], launchOptions: chromium } },
  ],
});
