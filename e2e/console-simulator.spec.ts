import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "./support/accessible";
import { hydrated, keepOnLoopback, pageErrors, shot } from "./support/driver";

// The console's sandbox simulator in Chromium: a new partner makes an app, a test account and a
// vehicle in the console, opens the simulator from the app page, clicks a start and an end on the
// map, starts a real-time run at 20×, watches the marker move and the progress grow, and stops
// it. Tiles never load (no traffic off loopback): the map works without them.

test.beforeEach(async ({ context }) => keepOnLoopback(context));

/** A point of the map's container, as a fraction of its size from the top left. */
async function clickMap(page: Page, fx: number, fy: number) {
  const box = (await page.getByTestId("simulator-map").boundingBox())!;
  await page.mouse.click(box.x + box.width * fx, box.y + box.height * fy);
}

test("a partner clicks start and end on the simulator map, runs a sandbox vehicle at 20×, watches it move and stops it", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const errors = pageErrors(page);
  const email = `sim.${Date.now().toString(36)}.${process.pid}.${testInfo.project.name}@partner.example`;
  await page.goto("/console/sign-up");
  await page.getByLabel("Your name").fill("Sim Partner");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill("e2e-partner-password");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Your apps" })).toBeVisible();
  await page.getByLabel("App name").fill("E2E Simulator");
  await hydrated(page.getByRole("button", { name: "Create app" }));
  await page.getByRole("button", { name: "Create app" }).click();
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "E2E Simulator" })).toBeVisible();

  await page.getByRole("link", { name: "Connected accounts" }).click();
  await page.getByRole("button", { name: "Create test account" }).click();
  await expect(page.getByText("Test account created")).toBeVisible();
  await page.getByRole("button", { name: "Done" }).click();
  await page.getByRole("button", { name: "Add test vehicle" }).click();
  await expect(page.getByText("Test vehicle created.")).toBeVisible();
  const vehicleId = (await page.getByTestId("value-vehicleId").textContent())!.trim();
  await page.getByRole("button", { name: "Done" }).click();

  await page
    .getByRole("navigation", { name: "App sections" })
    .getByRole("link", { name: "Simulator", exact: true })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Sandbox simulator" })).toBeVisible();
  await expect(page.getByTestId("road-attribution")).toContainText("© OpenStreetMap contributors, ODbL 1.0");
  await expect(page.getByLabel("Sandbox vehicle")).toHaveValue(vehicleId);
  await expect(page.getByText("Map background could not load; positions are still shown.")).toBeVisible();
  await expectAccessible(page);

  // The map opens on Columbus: its centre is downtown, a third of the way up is north of it.
  await clickMap(page, 0.5, 0.6);
  await clickMap(page, 0.5, 0.25);
  await expect(page.locator("[data-trip-marker=start]")).toBeVisible();
  await expect(page.locator("[data-trip-marker=end]")).toBeVisible();
  const startLat = Number(await page.getByLabel("Start latitude").inputValue());
  const endLat = Number(await page.getByLabel("End latitude").inputValue());
  expect(startLat).toBeGreaterThan(39.89);
  expect(endLat).toBeGreaterThan(startLat);
  expect(endLat).toBeLessThan(40.13);

  await page.getByLabel("Real time").check();
  // 20×, a data set every 3 s: the run must outlast the checks below (at 60× it finished before Stop
  // on a busy machine, the axe scan of the running page being slow there).
  await page.getByLabel("Speed-up (1–60×)").fill("20");
  await page.getByLabel("Collection period (s)").fill("60");
  await page.getByRole("button", { name: "Add an event" }).click();
  await page.getByLabel("Event 1", { exact: true }).selectOption("VEHICLE_EVENT_HARSH_DECEL");
  await page.getByRole("button", { name: "Start simulation" }).click();

  const watched = page.getByTestId("watched-run");
  await expect(watched).toHaveAttribute("data-status", "running", { timeout: 15_000 });
  const marker = page.locator(`[data-vehicle-id="${vehicleId}"][data-latitude]`);
  await expect(marker).toBeVisible({ timeout: 15_000 });
  const firstLat = await marker.getAttribute("data-latitude");
  const firstProgress = Number(await watched.getAttribute("data-progress"));
  await expect(marker).not.toHaveAttribute("data-latitude", firstLat!, { timeout: 15_000 });
  await expect
    .poll(async () => Number(await watched.getAttribute("data-progress")), { timeout: 15_000 })
    .toBeGreaterThan(firstProgress);
  await expect(page.getByTestId("simulator-map")).not.toHaveAttribute("data-route-points", "0");
  await shot(page, "console-simulator-running");
  await expectAccessible(page);

  await watched.getByRole("button", { name: "Stop run" }).click();
  await expect(watched).toHaveAttribute("data-status", "stopped", { timeout: 15_000 });
  await expect(watched).toContainText("Stopped");
  await expect(page.getByRole("table")).toContainText("stopped");
  // Nothing widens the page past the screen (the runs table scrolls inside its own box).
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBeLessThanOrEqual(0);
  await shot(page, "console-simulator-stopped");
  expect(errors).toEqual([]);
});
