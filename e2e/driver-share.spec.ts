import { devices, expect, test } from "@playwright/test";
import { axeOf, runAxe } from "./support/accessible";
import { dataSet, hydrated, keepOnLoopback, newDriver, pageErrors, shot, signIn } from "./support/driver";

// Sharing a live location (docs/driver-site.md#share-a-live-location), in Chromium: the driver makes
// a link on the vehicle page and copies it; a second browser context without a session, at a
// phone's size, opens it and sees the marker move by the link's stream; the driver ends the link,
// the open page says so within 5 s, and loading it again answers 410.

test.beforeEach(async ({ context }) => keepOnLoopback(context));

test("a shared link opened without a session moves live, ends within 5 s of the driver ending it, then answers 410", async ({
  page,
  context,
  browser,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const driver = await newDriver("share");
  const car = await driver.addVehicle("Shared car");
  const t0 = Date.now() - 600_000;
  await driver.post(car, [dataSet(new Date(t0), "ON", 39.9612, -82.9988)]);
  await signIn(page, driver, `/vehicles/${car}`);

  const sharing = page.locator("#share");
  await hydrated(sharing.getByRole("button", { name: "Create link" }));
  await sharing.getByLabel("Duration").selectOption("15m");
  await sharing.getByRole("button", { name: "Create link" }).click();
  const linkField = sharing.getByRole("textbox", { name: "Shared link" });
  await expect(linkField).toHaveValue(/\/share\/[A-Za-z0-9_-]{22}$/);
  const link = await linkField.inputValue();
  await sharing.getByRole("button", { name: "Copy link" }).click();
  await expect(sharing.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

  // Someone else: a phone, no cookies of the driver's.
  const viewerContext = await browser.newContext({ ...devices["Pixel 7"] });
  await keepOnLoopback(viewerContext);
  try {
    const viewer = await viewerContext.newPage();
    const errors = pageErrors(viewer);
    const opened = await viewer.goto(link);
    expect(opened?.status()).toBe(200);
    await expect(viewer.getByRole("heading", { name: "Shared car" })).toBeVisible();
    await expect(viewer.getByTestId("live-status")).toHaveText("Live");
    const marker = viewer.locator("[data-latitude]");
    await expect(marker).toHaveAttribute("data-latitude", "39.9612");
    await expect(viewer.locator('[data-field="Link ends"]')).not.toBeEmpty();
    await expect(viewer.locator('[data-field="Last updated"]')).toContainText("ago");
    // Nothing of the driver's account: no username, no site navigation.
    await expect(viewer.locator("body")).not.toContainText(driver.username);
    await expect(viewer.getByRole("navigation")).toHaveCount(0);

    await driver.post(car, [dataSet(new Date(t0 + 60_000), "RUNNING", 39.9631, -82.9971, 25)]);
    await expect(marker).toHaveAttribute("data-latitude", "39.9631");
    await shot(viewer, "shared-location-phone");
    const axe = await runAxe(axeOf(viewer).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]));
    expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual(
      [],
    );

    // The driver sees the view, then ends the link.
    await page.reload();
    await expect(sharing.locator('[data-field="Share views"]')).toContainText("1 view");
    await hydrated(sharing.getByRole("button", { name: "End link" }));
    await sharing.getByRole("button", { name: "End link" }).click();
    await expect(sharing.getByText("No shared link is active.")).toBeVisible();

    await expect(viewer.getByTestId("share-ended")).toBeVisible({ timeout: 5000 });
    await expect(viewer.locator("[data-latitude]")).toHaveCount(0);
    const again = await viewer.reload();
    expect(again?.status()).toBe(410);
    await expect(viewer.getByRole("heading", { name: "This shared location has ended" })).toBeVisible();
    await expect(viewer.locator("body")).not.toContainText("39.96");
    // No script error on the way, the ended page included.
    expect(errors).toEqual([]);
  } finally {
    await viewerContext.close();
  }
});
