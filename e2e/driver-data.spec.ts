import fs from "node:fs";
import { strFromU8, unzipSync } from "fflate";
import { expect, test } from "@playwright/test";
import { expectAccessible } from "./support/accessible";
import { baseUrl, dataSet, keepOnLoopback, newDriver, shot, signIn } from "./support/driver";

// The driver's controls over their data in Chromium: the "Data access" page after a partner app
// read the account through the API (table, chart by day, CSV download), and "Download my data"
// (progress shown, the ZIP saved and unpacked).

test.beforeEach(async ({ context }) => keepOnLoopback(context));

const apiGet = (path: string, token: string) =>
  fetch(`${baseUrl()}/sandbox/api${path}`, { headers: { Authorization: `Bearer ${token}` } });

test("Data access shows what the app read, per category, with a chart and a CSV download", async ({ page }) => {
  const driver = await newDriver("access");
  const car = await driver.addVehicle("Watched car");
  await driver.post(car, [dataSet(new Date(Date.now() - 60_000), "RUNNING", 40.7128, -74.006)]);
  // The app reads the vehicles twice (vehicle data and location) and the account once (identity).
  for (const path of ["/vehicle/", "/vehicle/", "/account/"])
    expect((await apiGet(path, driver.token)).status).toBe(200);

  await signIn(page, driver, "/data-access");
  const app = page.getByRole("list", { name: "Apps that received your data" }).getByRole("listitem");
  // Counts are written within a second on the test service: reload until they are there.
  await expect(async () => {
    await page.reload();
    await expect(app.locator('[data-category="location"] [data-field="count"]')).toHaveText("2", { timeout: 500 });
  }).toPass({ timeout: 15_000 });
  // Vehicle data: the vehicle's creation answer and the two reads.
  await expect(app.locator('[data-category="vehicle_data"] [data-field="count"]')).toHaveText("3");
  await expect(app.locator('[data-category="identity"] [data-field="count"]')).toHaveText("2");
  await expect(app.locator('[data-category="location"] [data-field="last"]')).toContainText(/just now|ago/);
  const chart = page.getByTestId("access-chart");
  await expect(chart).toBeVisible();
  await expect(chart.locator(".recharts-bar-rectangle").first()).toBeVisible();
  await expectAccessible(page);
  await shot(page, "driver-data-access");

  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download as CSV" }).click();
  const file = await downloading;
  expect(file.suggestedFilename()).toBe(`wayline-access-log-${driver.accountId}.csv`);
  const lines = fs
    .readFileSync((await file.path())!, "utf8")
    .trim()
    .split("\r\n");
  expect(lines[0]).toBe("app_id,app,category,hour_utc,count,last_access_utc");
  const sum = (category: string) =>
    lines
      .slice(1)
      .map((l) => l.split(","))
      .filter((f) => f[2] === category)
      .reduce((n, f) => n + Number(f[4]), 0);
  expect([sum("location"), sum("vehicle_data"), sum("identity")]).toEqual([2, 3, 2]);
});

test("Download my data shows its progress and saves a ZIP with the driver's trips and data points", async ({
  page,
}) => {
  const driver = await newDriver("export");
  const car = await driver.addVehicle("Exported car");
  const start = Date.now() - 3_600_000;
  const at = (minute: number) => new Date(start + minute * 60_000);
  await driver.post(car, [
    dataSet(at(0), "ON", 39.9612, -82.9988),
    dataSet(at(1), "RUNNING", 39.9622, -82.9978, 30),
    dataSet(at(2), "OFF", 39.9632, -82.9968),
  ]);

  await signIn(page, driver, "/account");
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download my data" }).click();
  const file = await downloading;
  const progress = page.getByTestId("export-progress");
  await expect(progress).toContainText("4 data points, 1 trip, 0 notifications, 1 vehicle");
  await expect(progress).toContainText("done, saved as a ZIP");
  await shot(page, "driver-download-data");
  expect(file.suggestedFilename()).toBe(`wayline-data-${driver.accountId}.zip`);

  const files = unzipSync(new Uint8Array(fs.readFileSync((await file.path())!)));
  expect(Object.keys(files)).toContain("trips.gpx");
  const geo = JSON.parse(strFromU8(files["trips.geojson"]!));
  expect(geo.features[0].geometry.coordinates).toEqual([
    [-82.9988, 39.9612],
    [-82.9978, 39.9622],
    [-82.9968, 39.9632],
  ]);
  expect(strFromU8(files["data-points.csv"]!).trim().split("\r\n")).toHaveLength(1 + 4);
  expect(JSON.parse(strFromU8(files["account.json"]!)).username).toBe(driver.username);
});
