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
    { name: "phone", use: { ...devices["Pixel 7"], launchOptions: chromium } },
  ],
});
