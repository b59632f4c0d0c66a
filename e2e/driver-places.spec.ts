import { expect, test, type Page } from "@playwright/test";
import { dataSet, keepOnLoopback, newDriver, shot, signIn } from "./support/driver";

// The driver's places in Chromium, on the real map page: a polygon drawn with the mouse through
// Leaflet-Geoman's toolbar, named, and reshaped by dragging a corner; a circle drawn, renamed, then
// deleted; and the vehicle's trip that ends inside the polygon named by it. Tiles never load (no traffic off loopback).

test.beforeEach(async ({ context }) => keepOnLoopback(context));

/** The map's centre on the screen: where the map put the vehicle (fitted to it alone). */
async function mapCentre(page: Page) {
  const box = (await page.getByTestId("vehicle-map").boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

test("a driver draws a polygon, names it Work and drags a corner; draws a circle, renames and deletes it; the trip ending inside reads → Work", async ({
  page,
}) => {
  const driver = await newDriver("places");
  const car = await driver.addVehicle("Commuter");
  const t0 = Date.now() - 30 * 60_000;
  // A trip of about 1.5 km that ends where the car is now, at the map's centre.
  await driver.post(car, [
    dataSet(new Date(t0), "ON", 39.95, -83.01),
    dataSet(new Date(t0 + 60_000), "RUNNING", 39.955, -83.005, 30),
    dataSet(new Date(t0 + 120_000), "OFF", 39.96, -83.0),
  ]);
  await signIn(page, driver);
  const map = page.getByTestId("vehicle-map");
  await expect(map).toHaveAttribute("data-places", "0");
  await expect(page.locator(`[data-vehicle-id="${car}"][data-latitude]`)).toBeVisible();
  const c = await mapCentre(page);

  // A polygon around the car: four corners clicked, then the first again to close it.
  await page.getByRole("button", { name: "Draw a place as a polygon" }).click();
  const corners = [
    [c.x - 90, c.y - 70],
    [c.x + 90, c.y - 80],
    [c.x + 100, c.y + 70],
    [c.x - 80, c.y + 90],
  ] as const;
  for (const [x, y] of corners) await page.mouse.click(x, y);
  await page.mouse.click(corners[0][0], corners[0][1]);

  const dialog = page.getByRole("dialog", { name: "Name this place" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId("place-shape")).toHaveText("Polygon, 4 points");
  await dialog.getByLabel("Name").fill("Work");
  await dialog.getByRole("button", { name: "Save place" }).click();
  await expect(dialog).toBeHidden();
  const places = page.getByRole("list", { name: "Your places" });
  await expect(places.getByRole("listitem")).toHaveCount(1);
  await expect(places.getByRole("listitem").first()).toContainText("Work");
  await expect(map).toHaveAttribute("data-places", "1");
  await expect(page.locator("path.wayline-place")).toHaveCount(1);
  await expect(page.locator(".wayline-place-label", { hasText: "Work" })).toBeVisible();

  // Edit mode: the first corner dragged 40 px up and left; the server keeps the new shape.
  const stored = async () =>
    ((await (await page.request.get("/me/places")).json()) as { places: { name: string; shape: any }[] }).places;
  const before = (await stored())[0]!.shape.polygon[0];
  const edit = page.getByRole("button", { name: "Edit the places' shapes" });
  await edit.click();
  await page.mouse.move(corners[0][0], corners[0][1]);
  await page.mouse.down();
  await page.mouse.move(corners[0][0] - 40, corners[0][1] - 40, { steps: 8 });
  await page.mouse.up();
  await expect.poll(async () => (await stored())[0]!.shape.polygon[0].latitude).toBeGreaterThan(before.latitude);
  expect((await stored())[0]!.shape.polygon[0].longitude).toBeLessThan(before.longitude);
  expect((await stored())[0]!.shape.polygon).toHaveLength(4);
  await edit.click();

  // A circle away from it (right of it: the toolbar's Cancel opens left), the centre clicked, then a point 60 px out.
  await page.getByRole("button", { name: "Draw a place as a circle" }).click();
  await page.mouse.click(c.x + 200, c.y - 170);
  await page.mouse.click(c.x + 260, c.y - 170);
  const circleDialog = page.getByRole("dialog", { name: "Name this place" });
  await expect(circleDialog.getByTestId("place-shape")).toHaveText(/^Circle, radius \d+ m$/);
  await circleDialog.getByLabel("Name").fill("Gym");
  await circleDialog.getByRole("button", { name: "Save place" }).click();
  await expect(circleDialog).toBeHidden();
  await expect(places.getByRole("listitem")).toHaveCount(2);
  await expect(map).toHaveAttribute("data-places", "2");
  await expect(page.locator("path.wayline-place")).toHaveCount(2);

  // An empty name is refused by the server, shown on the field; then a rename.
  await page.getByRole("button", { name: "Rename Gym" }).click();
  const rename = page.getByRole("dialog", { name: "Rename Gym" });
  await rename.getByLabel("Name").fill("  ");
  await rename.getByRole("button", { name: "Save place" }).click();
  await expect(rename.getByText("Give the place a name.")).toBeVisible();
  await rename.getByLabel("Name").fill("Gym & pool");
  await rename.getByRole("button", { name: "Save place" }).click();
  await expect(rename).toBeHidden();
  await expect(page.locator(".wayline-place-label", { hasText: "Gym & pool" })).toBeVisible();
  await shot(page, "driver-places");

  await page.getByRole("button", { name: "Delete Gym & pool" }).click();
  await page.getByRole("dialog", { name: "Delete Gym & pool?" }).getByRole("button", { name: "Delete place" }).click();
  await expect(places.getByRole("listitem")).toHaveCount(1);
  await expect(map).toHaveAttribute("data-places", "1");
  await expect(page.locator("path.wayline-place")).toHaveCount(1);

  // Kept on the server: there after a reload, and the trip that ends inside reads "→ Work".
  await page.reload();
  await expect(page.getByTestId("vehicle-map")).toHaveAttribute("data-places", "1");
  await page.goto(`/vehicles/${car}`);
  const trips = page.getByRole("list", { name: "Recent trips" });
  await expect(trips.getByTestId("trip-ends")).toHaveText("elsewhere → Work");
  await trips.getByRole("link").first().click();
  await expect(page.getByTestId("trip-ends")).toHaveText("elsewhere → Work");
});
