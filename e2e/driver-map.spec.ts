import { expect, test } from "@playwright/test";
import { dataSet, keepOnLoopback, markerCentre, newDriver, shot, signIn } from "./support/driver";
import { PHONE } from "./support/phone";

// The driver site's map home in Chromium: markers where the vehicles last were, the side list,
// and live movement as data sets arrive through the real API. Tiles never load (no traffic off
// loopback): the map works without them.

test.beforeEach(async ({ context }) => keepOnLoopback(context));

test(
  "a driver signs in and sees each vehicle's marker where it last was, with the list beside the map",
  PHONE,
  async ({ page }) => {
    const driver = await newDriver("map");
    const west = await driver.addVehicle("West car");
    const east = await driver.addVehicle("East car");
    const now = Date.now();
    await driver.post(west, [
      dataSet(new Date(now - 120_000), "ON", 39.96, -83.0),
      dataSet(new Date(now - 60_000), "OFF", 39.96, -83.0),
    ]);
    await driver.post(east, [dataSet(new Date(now - 60_000), "RUNNING", 39.9, -82.9, 30)]);

    await signIn(page, driver);
    await expect(page.getByRole("heading", { level: 1, name: "Your vehicles" })).toBeVisible();
    await expect(page.getByTestId("vehicle-map")).toHaveAttribute("data-markers", "2");
    await expect(page.locator(`[data-vehicle-id="${west}"][data-latitude]`)).toHaveAttribute("data-latitude", "39.96");
    await expect(page.locator(`[data-vehicle-id="${west}"][data-latitude]`)).toHaveAttribute("data-longitude", "-83");

    // On the screen: the east car is right of and below the west one, in the proportions of the
    // Web Mercator projection (0.1° of longitude against 0.06° of latitude at 40° N).
    const w = await markerCentre(page, west);
    const e = await markerCentre(page, east);
    expect(e.x).toBeGreaterThan(w.x);
    expect(e.y).toBeGreaterThan(w.y);
    const mercatorY = (lat: number) => Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) * (180 / Math.PI);
    const expected = 0.1 / (mercatorY(39.96) - mercatorY(39.9));
    expect((e.x - w.x) / (e.y - w.y)).toBeGreaterThan(expected * 0.9);
    expect((e.x - w.x) / (e.y - w.y)).toBeLessThan(expected * 1.1);
    const map = (await page.getByTestId("vehicle-map").boundingBox())!;
    for (const p of [w, e]) {
      expect(p.x).toBeGreaterThan(map.x);
      expect(p.x).toBeLessThan(map.x + map.width);
      expect(p.y).toBeGreaterThan(map.y);
      expect(p.y).toBeLessThan(map.y + map.height);
    }

    const list = page.getByRole("list", { name: "Your vehicles" });
    const eastItem = list.getByRole("listitem").filter({ hasText: "East car" });
    await expect(eastItem).toContainText("Running");
    await expect(list.getByRole("listitem").filter({ hasText: "West car" })).toContainText("Parked");
    // The account's time zone is America/New_York.
    await expect(eastItem.getByTestId("last-seen")).toContainText(/E[SD]T/);
    await expect(page.getByText("Map background could not load; positions are still shown.")).toBeVisible();
    await shot(page, "driver-map");
  },
);

test("a vehicle's marker moves within 5 seconds of its device posting a data set, without a reload or redrawing the others, and Follow keeps it centred", async ({
  page,
}) => {
  const driver = await newDriver("live");
  const car = await driver.addVehicle("Moving car");
  const parked = await driver.addVehicle("Parked car");
  const t0 = Date.now() - 600_000;
  await driver.post(car, [dataSet(new Date(t0), "ON", 39.96, -83.0)]);
  await driver.post(parked, [dataSet(new Date(t0), "OFF", 39.95, -83.01)]);
  await signIn(page, driver);
  const marker = page.locator(`[data-vehicle-id="${car}"][data-latitude]`);
  await expect(marker).toHaveAttribute("data-latitude", "39.96");
  await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
  const before = await markerCentre(page, car);
  // The other car's marker is left as it is while this one moves: marked here, still marked after.
  // (Leaflet rewrites a marker's HTML whenever it is handed a new icon, and the map once handed
  // every marker one on each update.)
  const parkedDot = page.locator(`[data-vehicle-id="${parked}"][data-latitude]`);
  await parkedDot.evaluate((element) => element.setAttribute("data-kept", ""));

  await driver.post(car, [dataSet(new Date(t0 + 60_000), "RUNNING", 39.961, -82.999, 25)]);
  const posted = Date.now();
  await expect(marker).toHaveAttribute("data-latitude", "39.961", { timeout: 5_000 });
  expect(Date.now() - posted).toBeLessThan(5_000);
  await expect(parkedDot).toHaveAttribute("data-kept", "");
  const after = await markerCentre(page, car);
  expect(after.x).toBeGreaterThan(before.x); // east
  expect(after.y).toBeLessThan(before.y); // north
  await expect(page.getByRole("list", { name: "Your vehicles" })).toContainText("Running");
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  await shot(page, "driver-map-moved");

  // Follow mode: the next position is brought to the middle of the map.
  await page.getByRole("button", { name: "Follow Moving car" }).click();
  await expect(page.getByRole("button", { name: "Follow Moving car" })).toHaveAttribute("aria-pressed", "true");
  await driver.post(car, [dataSet(new Date(t0 + 120_000), "RUNNING", 39.975, -82.98, 40)]);
  await expect(marker).toHaveAttribute("data-latitude", "39.975", { timeout: 5_000 });
  // The map's own area: the missing-tiles notice sits below it, inside the same frame.
  const map = (await page.getByTestId("vehicle-map").locator(".leaflet-container").boundingBox())!;
  await expect
    .poll(async () => {
      const p = await markerCentre(page, car);
      return Math.hypot(p.x - (map.x + map.width / 2), p.y - (map.y + map.height / 2));
    })
    .toBeLessThan(20);
  await shot(page, "driver-map-follow");
});

test("a new sandbox account sees how to add a vehicle and where the simulator is, and adds one", async ({ page }) => {
  const driver = await newDriver("empty");
  await signIn(page, driver);
  await expect(page.getByRole("heading", { name: "No vehicles yet" })).toBeVisible();
  await expect(page.getByText("POST /sandbox/api/vehicle/{id}/simulation/")).toBeVisible();
  await expect(page.getByText(/drive it with the traffic simulator in the partner console/)).toBeVisible();
  await shot(page, "driver-map-empty");
  await page.getByLabel("Label").fill("First car");
  await page.getByRole("button", { name: "Add vehicle" }).click();
  await page.waitForURL(/\/vehicles\/\d+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("First car");
});
