import { expect, test } from "@playwright/test";
import { expectAccessible } from "./support/accessible";
import { dataSet, keepOnLoopback, newDriver, pageErrors, shot, signIn } from "./support/driver";

// Details of the driver site: the connected-apps page says what each app can do and when it last
// used its access; the vehicle page shows the last position on a small map (or says there is
// none). Tiles never load (no traffic off loopback): the map works without them.

test.beforeEach(async ({ context }) => keepOnLoopback(context));

test("connected apps: the app that created the account is listed with what it can do and when it last used its access", async ({
  page,
}) => {
  const errors = pageErrors(page);
  const driver = await newDriver("apps");
  // The app uses its token after this instant: the page's last use must come from that call
  // (stamped beside the request, so the page is reloaded until it shows).
  const beforeUse = Date.now();
  await driver.addVehicle("Apps car");

  await signIn(page, driver, "/connected-apps");
  await expect(page.getByRole("heading", { level: 1, name: "Connected apps" })).toBeVisible();
  const app = page.locator("li[data-app-id]");
  await expect(app).toHaveCount(1);
  await expect(app.getByRole("heading", { level: 2 })).toHaveText(/^E2E driver site/);
  await expect(app).toContainText("By E2E Partners Ltd.");
  await expect(app).toContainText("Created your account");
  const abilities = app.getByRole("list", { name: "It can, until you revoke it:" });
  await expect(abilities.getByRole("listitem")).toHaveText([
    "See your account details: name, e-mail, phone, zip code and time zone.",
    "See and manage your vehicles, with their positions, trips and device data.",
    "Be notified of your vehicles' events.",
  ]);

  const lastUsed = app.locator('[data-field="last-used"] time');
  await expect(async () => {
    await page.reload();
    const at = await lastUsed.getAttribute("datetime", { timeout: 5_000 });
    expect(Date.parse(at ?? "")).toBeGreaterThanOrEqual(beforeUse);
  }).toPass({ timeout: 30_000 });
  await expect(lastUsed).toHaveText(/^(just now|\d+ min ago)$/);
  // The account's time zone is America/New_York: the exact time beside it, and on hover.
  await expect(app.locator('[data-field="last-used"]')).toContainText(
    /\(\w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M E[SD]T\)/,
  );
  await expect(lastUsed).toHaveAttribute("title", /E[SD]T$/);
  await expectAccessible(page);
  await shot(page, "driver-connected-apps");
  expect(errors).toEqual([]);
});

test("the vehicle page shows the last position on a small map, with the marker there; a vehicle without one says so", async ({
  page,
}) => {
  const errors = pageErrors(page);
  const driver = await newDriver("minimap");
  const car = await driver.addVehicle("Mapped car");
  const bare = await driver.addVehicle("Unplaced car");
  const now = Date.now();
  await driver.post(car, [
    dataSet(new Date(now - 120_000), "ON", 39.96, -83.0),
    dataSet(new Date(now - 60_000), "RUNNING", 39.9612, -82.9987, 20),
  ]);

  await signIn(page, driver, `/vehicles/${car}`);
  await expect(page.getByRole("heading", { level: 2, name: "Last position" })).toBeVisible();
  const map = page.getByTestId("position-map");
  await expect(map).toBeVisible();
  const marker = map.locator(`[data-vehicle-id="${car}"][data-latitude]`);
  await expect(marker).toHaveAttribute("data-latitude", "39.9612");
  await expect(marker).toHaveAttribute("data-longitude", "-82.9987");
  await expect(map.locator(`[data-vehicle-label="${car}"]`)).toHaveText("Mapped car");
  // The big map's credits, and the notice that tiles could not load.
  await expect(map.locator(".leaflet-control-attribution")).toContainText("OpenStreetMap");
  await expect(map.getByTestId("map-notice")).toBeVisible();
  // The map is centred on the position: the marker sits in the middle of the map's area.
  await expect(async () => {
    const area = (await map.locator(".leaflet-container").boundingBox())!;
    const dot = (await marker.boundingBox())!;
    expect(Math.abs(dot.x + dot.width / 2 - (area.x + area.width / 2))).toBeLessThanOrEqual(3);
    expect(Math.abs(dot.y + dot.height / 2 - (area.y + area.height / 2))).toBeLessThanOrEqual(3);
  }).toPass({ timeout: 10_000 });
  await expect(page.locator('[data-field="Last position"]')).toContainText(
    /^39\.96120, -82\.99870, reported \d+ min ago \(\w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M E[SD]T\)$/,
  );
  await expectAccessible(page);
  await shot(page, "driver-vehicle-position");

  await page.goto(`/vehicles/${bare}`);
  await expect(page.getByRole("heading", { level: 1, name: "Unplaced car" })).toBeVisible();
  await expect(page.locator('[data-field="Last position"]')).toHaveText(
    "No position yet. The map shows where the vehicle is once its device reports a location.",
  );
  await expect(page.getByTestId("position-map")).toHaveCount(0);
  await expectAccessible(page);
  expect(errors).toEqual([]);
});
