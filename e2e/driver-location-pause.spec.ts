import { expect, test } from "@playwright/test";
import { expectAccessible } from "./support/accessible";
import { baseUrl, dataSet, keepOnLoopback, newDriver, shot, signIn } from "./support/driver";

// The location pause in Chromium (docs/driver-site.md#pause-location): the switch on a vehicle's
// page; while paused a partner app sees locationPaused: true, a new data set's position is not
// stored (its other values are), and the map keeps the last position before the pause, marked as
// paused; one click resumes, and the next position is stored again.

test.beforeEach(async ({ context }) => keepOnLoopback(context));

const BEFORE = { lat: 40.7128, lon: -74.006 };
const DURING = { lat: 40.7484, lon: -73.9857 };
const AFTER = { lat: 40.7612, lon: -73.9776 };

test("paused: apps see locationPaused, no new position is stored, the map shows the last one marked paused; resumed in one click", async ({
  page,
}) => {
  const driver = await newDriver("pause");
  const car = await driver.addVehicle("Paused car");
  const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
  await driver.post(car, [dataSet(minutesAgo(5), "RUNNING", BEFORE.lat, BEFORE.lon, 20)]);
  // What the partner app (the driver's own E2E app) reads through the API.
  const apiGet = async (path: string) => {
    const res = await fetch(`${baseUrl()}/sandbox/api${path}`, {
      headers: { Authorization: `Bearer ${driver.token}` },
    });
    expect(res.status).toBe(200);
    return res.json();
  };
  const points = async (key: string) => (await apiGet(`/vehicle/${car}/data/?key=${key}`)).data.length as number;

  await signIn(page, driver, `/vehicles/${car}`);
  // The small map is drawn in the browser only: once its marker is there, the page has hydrated
  // and the switch has its handler.
  await expect(page.getByTestId("position-map").locator(`[data-vehicle-id="${car}"][data-latitude]`)).toBeVisible();
  const pause = page.getByRole("switch", { name: "Pause location" });
  await expect(pause).toHaveAttribute("aria-checked", "false");
  await pause.click();
  const resume = page.getByRole("switch", { name: "Resume location" });
  await expect(resume).toHaveAttribute("aria-checked", "true");
  await expect(page.locator('[data-field="Location pause"]')).toHaveText(
    "Location is paused: positions are not stored, and apps see no new position.",
  );
  expect((await apiGet(`/vehicle/${car}`)).vehicle.locationPaused).toBe(true);

  // A data set while paused: its speed is stored, its position is not.
  await driver.post(car, [dataSet(minutesAgo(3), "RUNNING", DURING.lat, DURING.lon, 35)]);
  const vehicle = (await apiGet(`/vehicle/${car}`)).vehicle;
  expect(vehicle.lastWaypoint).toMatchObject({ latitude: BEFORE.lat, longitude: BEFORE.lon });
  expect(await points("GEN_WAYPOINT")).toBe(1);
  expect(await points("GEN_SPEED")).toBe(2);

  // The vehicle page and the map: the last position before the pause, marked as paused.
  await page.reload();
  await expect(page.locator('[data-field="Last position"]')).toContainText(
    /^40\.71280, -74\.00600, reported .* \(paused: the last position before the pause\)$/,
  );
  await page.goto("/map");
  const marker = page.getByTestId("vehicle-map").locator(`[data-vehicle-id="${car}"][data-latitude]`);
  await expect(marker).toHaveAttribute("data-latitude", String(BEFORE.lat));
  await expect(marker).toHaveAttribute("data-longitude", String(BEFORE.lon));
  await expect(page.getByTestId("vehicle-map").locator(`[data-vehicle-label="${car}"]`)).toHaveText(
    "Paused car (location paused)",
  );
  await expectAccessible(page);
  await shot(page, "driver-location-paused");

  // Resume: one click, and the next position is stored and seen again.
  await page.goto(`/vehicles/${car}`);
  await expect(page.getByTestId("position-map").locator(`[data-vehicle-id="${car}"][data-latitude]`)).toBeVisible();
  await page.getByRole("switch", { name: "Resume location" }).click();
  await expect(page.getByRole("switch", { name: "Pause location" })).toHaveAttribute("aria-checked", "false");
  await expect(page.locator('[data-field="Location pause"]')).toHaveText(
    "Location is shared: positions are stored and apps with access see them.",
  );
  expect((await apiGet(`/vehicle/${car}`)).vehicle.locationPaused).toBe(false);
  await driver.post(car, [dataSet(minutesAgo(1), "RUNNING", AFTER.lat, AFTER.lon, 40)]);
  expect((await apiGet(`/vehicle/${car}`)).vehicle.lastWaypoint).toMatchObject({
    latitude: AFTER.lat,
    longitude: AFTER.lon,
  });
  expect(await points("GEN_WAYPOINT")).toBe(2);
  await page.goto("/map");
  await expect(marker).toHaveAttribute("data-latitude", String(AFTER.lat));
  await expect(page.getByTestId("vehicle-map").locator(`[data-vehicle-label="${car}"]`)).toHaveText("Paused car");
});
