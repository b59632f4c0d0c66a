import { expect, test } from "@playwright/test";
import { dataSet, keepOnLoopback, newDriver, shot, signIn, type DataSet } from "./support/driver";

// Replaying a trip in Chromium: the track with start and end, play, pause, the scrubber, speed
// and the totals.

test.beforeEach(async ({ context }) => keepOnLoopback(context));

/** A trip of `points` positions 10 s apart heading north-east at 36 mph, then an OFF. */
function trip(start: number, points: number): DataSet[] {
  const sets: DataSet[] = [];
  for (let i = 0; i < points; i++) {
    sets.push(
      dataSet(
        new Date(start + i * 10_000),
        i === 0 ? "ON" : "RUNNING",
        39.96 + i * 0.0005,
        -83.0 + i * 0.0005,
        i === 0 ? 0 : 36,
      ),
    );
  }
  sets.push(
    dataSet(new Date(start + points * 10_000), "OFF", 39.96 + (points - 1) * 0.0005, -83.0 + (points - 1) * 0.0005, 0),
  );
  return sets;
}

test("a driver opens a trip from the vehicle page and replays it: track, start and end, play, pause, scrub, speeds, totals", async ({
  page,
}) => {
  const driver = await newDriver("replay");
  const car = await driver.addVehicle("Replay car");
  await driver.post(car, trip(Date.now() - 3 * 3_600_000, 60));

  await signIn(page, driver);
  await page.getByRole("link", { name: "Replay car", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Replay car");
  await page.getByRole("list", { name: "Recent trips" }).getByRole("link").first().click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Trip of");

  await expect(page.getByTestId("track-map")).toHaveAttribute("data-track-drawn", "61");
  await expect(page.locator("[data-trip-marker=start]")).toBeVisible();
  await expect(page.locator("[data-trip-marker=end]")).toBeVisible();
  await expect(page.locator("[data-total=Duration]")).toHaveText("10 min 00 s");
  await expect(page.locator('[data-total="Top speed"]')).toHaveText("36 mph");
  await expect(page.locator("[data-total=Distance]")).toHaveText(/^2(\.\d)? mi$/);
  await expect(page.locator("[data-total=Stopped]")).toHaveText(/^\d+ s$/);

  const clock = page.getByTestId("replay-clock");
  await expect(clock).toContainText("point 1 of 61");
  await page.getByLabel("Speed").selectOption("20");
  await page.getByRole("button", { name: "Play" }).click();
  await expect(clock).not.toContainText("point 1 of 61");
  await page.getByRole("button", { name: "Pause" }).click();
  const paused = await clock.textContent();
  await page.waitForTimeout(600);
  await expect(clock).toHaveText(paused!);
  await shot(page, "driver-trip-paused");

  const scrubber = page.getByLabel("Position in the trip");
  const max = await scrubber.getAttribute("max");
  await scrubber.fill(max!);
  await expect(clock).toContainText("point 61 of 61");
  await expect(page.getByLabel("Follow the vehicle")).toBeChecked();
  await shot(page, "driver-trip-end");
});

// Out of the box (`npm start`): the demo driver's van has a finished trip, recorded by the
// simulator's instant mode at seed time, to replay. The demo data as server/surfaces/demo/seed.ts seeds it.
const DEMO = {
  driver: { username: "demo.driver", password: "demo-password" },
  van: { label: "Work van", vin: "1FTBR1Y8XLKA47219" },
};

test("the demo driver opens the van's seeded trip from its vehicle page and replays it", async ({ page }) => {
  await signIn(page, DEMO.driver);
  await page.getByRole("link", { name: DEMO.van.label }).first().click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(DEMO.van.label);
  await expect(page.locator("[data-field=Type]")).toHaveText("2020 Ford Transit");
  await expect(page.locator("[data-field=VIN]")).toHaveText(DEMO.van.vin);
  const trips = page.getByRole("list", { name: "Recent trips" }).getByRole("link");
  await expect(trips).toHaveCount(1);
  await trips.first().click();
  await expect(page).toHaveURL(/\/vehicles\/\d+\/trips\/\d+$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Trip of");

  const track = page.getByTestId("track-map");
  await expect(track).toHaveAttribute("data-track-drawn", /^[1-9]\d+$/);
  const points = Number(await track.getAttribute("data-track-drawn"));
  await expect(page.locator("[data-trip-marker=start]")).toBeVisible();
  await expect(page.locator("[data-trip-marker=end]")).toBeVisible();
  await expect(page.locator("[data-total=Distance]")).toHaveText(/^\d+(\.\d)? mi$/);

  const clock = page.getByTestId("replay-clock");
  await expect(clock).toContainText(`point 1 of ${points}`);
  await page.getByLabel("Speed").selectOption("20");
  await page.getByRole("button", { name: "Play" }).click();
  await expect(clock).not.toContainText(`point 1 of ${points}`);
  await page.getByRole("button", { name: "Pause" }).click();
  const scrubber = page.getByLabel("Position in the trip");
  await scrubber.fill((await scrubber.getAttribute("max"))!);
  await expect(clock).toContainText(`point ${points} of ${points}`);
  await shot(page, "driver-demo-trip-end");
});
