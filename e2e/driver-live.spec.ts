import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { dataSet, keepOnLoopback, newDriver, shot, signIn } from "./support/driver";

// The live map by push (docs/driver-site.md#live-map) and its offline background, in Chromium:
// a marker moves after a data set posted to the API with no /me/positions request made (the
// stream carried it), the status says "Live"; with the stream endpoint failing the map falls back
// to polling and says "Updating every 2 s"; tiles never load here (a closed port), so the map
// draws the shipped road networks instead of a grey square. Each test makes its own driver.

test.beforeEach(async ({ context }) => keepOnLoopback(context));

/** Every request the page makes to /me/positions (the polling route), counted from now on. */
function pollsOf(page: Page): string[] {
  const polls: string[] = [];
  page.on("request", (r) => {
    if (new URL(r.url()).pathname === "/me/positions") polls.push(r.url());
  });
  return polls;
}

test("a marker moves after a data set is posted to the API, with no /me/positions request made; the status says Live", async ({
  page,
}) => {
  const polls = pollsOf(page);
  const driver = await newDriver("push");
  const car = await driver.addVehicle("Pushed car");
  const t0 = Date.now() - 600_000;
  await driver.post(car, [dataSet(new Date(t0), "ON", 39.9612, -82.9988)]);
  await signIn(page, driver);
  const status = page.getByTestId("live-status");
  await expect(status).toHaveText("Live");
  const marker = page.locator(`[data-vehicle-id="${car}"][data-latitude]`);
  await expect(marker).toHaveAttribute("data-latitude", "39.9612");

  await driver.post(car, [dataSet(new Date(t0 + 60_000), "RUNNING", 39.9631, -82.9971, 25)]);
  await expect(marker).toHaveAttribute("data-latitude", "39.9631");
  await driver.post(car, [dataSet(new Date(t0 + 120_000), "RUNNING", 39.965, -82.995, 25)]);
  await expect(marker).toHaveAttribute("data-latitude", "39.965");
  await expect(page.getByRole("list", { name: "Your vehicles" })).toContainText("Running");
  await expect(status).toHaveText("Live");
  expect(polls).toEqual([]);
});

test("when the stream endpoint fails the map polls, says 'Updating every 2 s', and still moves", async ({ page }) => {
  await page.route("**/me/positions/stream", (route) =>
    route.fulfill({ status: 503, contentType: "text/plain", body: "stream down" }),
  );
  const polls = pollsOf(page);
  const driver = await newDriver("fallback");
  const car = await driver.addVehicle("Polled car");
  const t0 = Date.now() - 600_000;
  await driver.post(car, [dataSet(new Date(t0), "ON", 39.9612, -82.9988)]);
  await signIn(page, driver);
  await expect(page.getByTestId("live-status")).toHaveText("Updating every 2 s");
  await driver.post(car, [dataSet(new Date(t0 + 60_000), "RUNNING", 39.9631, -82.9971, 25)]);
  await expect(page.locator(`[data-vehicle-id="${car}"][data-latitude]`)).toHaveAttribute("data-latitude", "39.9631");
  expect(polls.length).toBeGreaterThan(0);
});

test("the vehicle page's small map follows the stream and says Live", async ({ page }) => {
  const polls = pollsOf(page);
  const driver = await newDriver("page-live");
  const car = await driver.addVehicle("Page car");
  const t0 = Date.now() - 600_000;
  await driver.post(car, [dataSet(new Date(t0), "ON", 39.9612, -82.9988)]);
  await signIn(page, driver, `/vehicles/${car}`);
  await expect(page.getByTestId("live-status")).toHaveText("Live");
  await driver.post(car, [dataSet(new Date(t0 + 60_000), "RUNNING", 39.9631, -82.9971, 25)]);
  await expect(page.locator('[data-field="Last position"]')).toContainText("39.96310, -82.99710");
  expect(polls).toEqual([]);
});

test("without tiles the map draws the shipped road networks under the markers", async ({ page }) => {
  const driver = await newDriver("roads");
  const car = await driver.addVehicle("Downtown car");
  await driver.post(car, [dataSet(new Date(Date.now() - 60_000), "OFF", 39.9612, -82.9988)]);
  const roads = page.waitForResponse((r) => new URL(r.url()).pathname.startsWith("/roads/") && r.status() === 200);
  await signIn(page, driver);
  await roads;
  const lines = page.getByTestId("road-background").locator("path");
  await expect(lines.first()).toBeAttached();
  // Streets, not a few strokes: the drawn paths hold many line segments.
  const moves = await lines.evaluateAll((ps) =>
    ps.reduce((n, p) => n + (p.getAttribute("d")?.match(/M/g)?.length ?? 0), 0),
  );
  expect(moves).toBeGreaterThan(50);
  await shot(page, "driver-map-roads");
});

// The README's screenshot (docs/screenshot-map.png): the demo driver's map, offline, with the demo
// car on a Columbus street. Written only when asked: README_SCREENSHOT=1 npx playwright test
// e2e/driver-live.spec.ts -g "README".
test("README screenshot: the demo car on the offline road map", async ({ page }) => {
  test.skip(!process.env.README_SCREENSHOT, "only when updating the README's screenshot");
  const line = /^Driver site: sign in at (\S+) as (\S+) \/ (\S+)$/.exec(process.env.E2E_DEMO_SIGN_IN ?? "");
  if (!line) throw new Error("npm start printed no demo sign-in line");
  await page.setViewportSize({ width: 1280, height: 760 });
  await signIn(page, { username: line[2]!, password: line[3]! });
  await expect(page.locator(".leaflet-marker-icon [data-vehicle-id][data-latitude]").first()).toBeVisible({
    timeout: 30_000,
  });
  // Street level around the family car, where every road is drawn.
  await page
    .getByRole("listitem")
    .filter({ hasText: "Family car" })
    .getByRole("button", { name: "Show on map" })
    .click();
  await page.getByRole("button", { name: "Zoom in" }).click();
  await page.getByRole("button", { name: "Zoom in" }).click();
  await expect(page.getByTestId("road-background").locator("path").first()).toBeAttached();
  await page.waitForTimeout(1500); // the zoom's animation and the last cells drawn
  await page.screenshot({ path: path.join(import.meta.dirname, "..", "docs", "screenshot-map.png") });
});
