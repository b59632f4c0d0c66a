import { expect, test, type Page } from "@playwright/test";
import { axeOf, runAxe } from "./support/accessible";
import { dataSet, keepOnLoopback, newDriver, pageErrors, shot, signIn, type Driver } from "./support/driver";
import { PHONE } from "./support/phone";

// Every driver page through axe (no serious or critical violations), the keyboard, and the map
// page on a 375-pixel phone.

test.beforeEach(async ({ context }) => keepOnLoopback(context));

async function expectNoSeriousViolations(page: Page, name: string) {
  const results = await runAxe(axeOf(page).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]));
  const serious = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({
      page: name,
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n) => n.target.join(" ")).slice(0, 5),
    }));
  expect(serious).toEqual([]);
}

async function driverWithTrip(tag: string): Promise<{ driver: Driver; car: number }> {
  const driver = await newDriver(tag);
  const car = await driver.addVehicle("Axe car");
  const start = Date.now() - 2 * 3_600_000;
  await driver.post(car, [
    dataSet(new Date(start), "ON", 39.96, -83.0),
    dataSet(new Date(start + 60_000), "RUNNING", 39.965, -82.995, 30),
    dataSet(new Date(start + 120_000), "OFF", 39.97, -82.99),
  ]);
  return { driver, car };
}

test("every driver page has no serious or critical axe violations, and no script errors", PHONE, async ({ page }) => {
  // A ceiling for eight pages with an axe scan each: well under a minute on a quiet machine.
  test.setTimeout(120_000);
  const errors = pageErrors(page);
  const { driver, car } = await driverWithTrip("axe");
  await page.goto("/login");
  await expectNoSeriousViolations(page, "/login");

  await signIn(page, driver);
  await expect(page.locator(`[data-vehicle-id="${car}"][data-latitude]`)).toBeVisible();
  await expectNoSeriousViolations(page, "/map");

  await page.goto(`/vehicles/${car}`);
  await expectNoSeriousViolations(page, "/vehicles/{id}");

  await page.getByRole("list", { name: "Recent trips" }).getByRole("link").first().click();
  await expect(page.getByTestId("track-map")).toHaveAttribute("data-track-drawn", "3");
  await expectNoSeriousViolations(page, "/vehicles/{id}/trips/{tripId}");

  await page.goto("/account");
  await expectNoSeriousViolations(page, "/account");
  await page.getByRole("button", { name: "Delete account…" }).click();
  await expectNoSeriousViolations(page, "/account (delete dialog)");

  await page.goto("/connected-apps");
  await expect(page.getByRole("heading", { level: 1, name: "Connected apps" })).toBeVisible();
  await expectNoSeriousViolations(page, "/connected-apps");

  await page.goto("/vehicles/999999999");
  await expect(page.getByRole("heading", { level: 1, name: "Not found" })).toBeVisible();
  await expectNoSeriousViolations(page, "not found");
  expect(errors).toEqual([]);
});

test("the empty map page of a new account has no serious or critical axe violations", PHONE, async ({ page }) => {
  await signIn(page, await newDriver("axe-empty"));
  await expect(page.getByRole("heading", { name: "No vehicles yet" })).toBeVisible();
  await expectNoSeriousViolations(page, "/map (empty)");
});

test("the site is usable by keyboard: the navigation, the vehicle list's buttons and the map's markers take focus visibly", async ({
  page,
}) => {
  const { driver, car } = await driverWithTrip("keys");
  await signIn(page, driver);
  await expect(page.locator(`[data-vehicle-id="${car}"][data-latitude]`)).toBeVisible();

  // Tab from the top of the page: the site navigation comes first.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Wayline" })).toBeFocused();
  // On a phone the links are behind the Menu button, which opens from the keyboard.
  const menu = page.getByRole("navigation", { name: "Site" }).getByRole("button", { name: "Menu" });
  if (await menu.isVisible()) {
    await page.keyboard.press("Tab");
    await expect(menu).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(menu).toHaveAttribute("aria-expanded", "true");
  }
  const seen: string[] = [];
  for (let i = 0; i < 24; i++) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      const name = el.getAttribute("aria-label") ?? el.getAttribute("title") ?? el.textContent?.trim() ?? "";
      const marker = el.classList.contains("leaflet-marker-icon") ? "marker:" : "";
      return `${marker}${name.slice(0, 60)}|${getComputedStyle(el).outlineStyle}`;
    });
    if (focused) seen.push(focused);
  }
  const names = seen.map((s) => s.split("|")[0]);
  expect(names).toContain("Account");
  expect(names).toContain("Follow Axe car");
  expect(names).toContain("marker:Axe car");
  // :focus-visible draws an outline on whatever has focus.
  expect(seen.filter((s) => s.endsWith("|none"))).toEqual([]);

  await page.getByRole("button", { name: "Follow Axe car" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Follow Axe car" })).toHaveAttribute("aria-pressed", "true");
});

test.describe("on a 375-pixel phone", () => {
  test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

  test("the map page fits the screen: markers, list and navigation, no sideways scrolling", async ({ page }) => {
    const { driver, car } = await driverWithTrip("phone");
    await signIn(page, driver);
    await expect(page.locator(`[data-vehicle-id="${car}"][data-latitude]`)).toBeVisible();
    await expect(page.getByRole("list", { name: "Your vehicles" })).toContainText("Axe car");
    await page.getByRole("button", { name: "Menu" }).click();
    await expect(page.getByRole("link", { name: "Account" })).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    const map = (await page.getByTestId("vehicle-map").boundingBox())!;
    expect(map.width).toBeLessThanOrEqual(375);
    expect(map.height).toBeGreaterThan(250);
    await expectNoSeriousViolations(page, "/map (375 px)");
    await shot(page, "driver-map-375");
  });
});
