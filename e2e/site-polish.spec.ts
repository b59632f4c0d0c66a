import { expect, test, type Locator, type Page } from "@playwright/test";
import { expectAccessible } from "./support/accessible";
import { baseUrl, dataSet, keepOnLoopback, newDriver, shot, signIn } from "./support/driver";
import { PHONE } from "./support/phone";

// What a person meets in the first minute: an icon and a web manifest that are there, 404 pages
// with the site's navigation, a header that folds into a menu on a phone, vehicles labelled on
// the map, and the missing-tiles notice kept off the markers.

test.beforeEach(async ({ context }) => keepOnLoopback(context));

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * Every response of the page with a status of 400 or more (refused tiles never get a response),
 * and a wait for the page to be loaded and quiet for a moment: icons and the manifest come late.
 * (Not "networkidle": the live map polls for positions.)
 */
function errorResponses(page: Page) {
  const seen: string[] = [];
  let last = Date.now();
  page.on("response", (response) => {
    last = Date.now();
    if (response.status() >= 400) seen.push(`${response.status()} ${response.url()}`);
  });
  const settle = async () => {
    await page.waitForLoadState("load");
    const until = Date.now() + 5_000;
    while (Date.now() - last < 1_000 && Date.now() < until) await page.waitForTimeout(200);
  };
  return { seen, settle };
}

/** A header link, after opening the menu when the links are behind one (a phone). */
async function headerLink(nav: Locator, name: string) {
  const menu = nav.getByRole("button", { name: "Menu" });
  if ((await menu.isVisible()) && (await menu.getAttribute("aria-expanded")) === "false") await menu.click();
  return nav.getByRole("link", { name, exact: true });
}

const demoPartner = { email: "demo.partner@wayline.example", password: "demo-password" };

test("the main pages request nothing that is missing, and name an icon and a web manifest that are served", async ({
  page,
  request,
}) => {
  const failed = errorResponses(page);
  const driver = await newDriver("assets");
  const car = await driver.addVehicle("Asset car");
  await driver.post(car, [dataSet(new Date(Date.now() - 60_000), "OFF", 39.96, -83.0)]);

  for (const path of ["/", "/login", "/console"]) {
    expect((await page.goto(path))?.status(), path).toBe(200);
    await failed.settle();
  }
  await signIn(page, driver);
  await expect(page.locator(`[data-vehicle-id="${car}"][data-latitude]`)).toBeVisible();
  await failed.settle();
  expect(failed.seen).toEqual([]);

  // The head names them, so browsers need not guess.
  await expect(page.locator('head link[rel="manifest"]')).toHaveAttribute("href", "/manifest.webmanifest");
  await expect(page.locator('head link[rel="icon"][type="image/svg+xml"]')).toHaveAttribute("href", "/icon.svg");
  await expect(page.locator('head meta[name="theme-color"]')).toHaveAttribute("content", "#1d4ed8");

  const manifest = await request.get("/manifest.webmanifest");
  expect(manifest.status()).toBe(200);
  const body = (await manifest.json()) as { name: string; theme_color: string; icons: { src: string; type: string }[] };
  expect(body.name).toBe("Wayline");
  expect(body.theme_color).toBe("#1d4ed8");
  expect(body.icons.length).toBeGreaterThanOrEqual(2);
  // Browsers that ask for /favicon.ico anyway, and iOS's home-screen icon, find them too.
  const icons = [
    ...body.icons.map((i) => ({ src: i.src, type: i.type })),
    { src: "/favicon.ico", type: "image/" },
    { src: "/apple-touch-icon.png", type: "image/png" },
  ];
  for (const icon of icons) {
    const res = await request.get(icon.src);
    expect(res.status(), icon.src).toBe(200);
    expect(res.headers()["content-type"], icon.src).toContain(icon.type);
    expect((await res.body()).length, icon.src).toBeGreaterThan(100);
  }
});

test(
  "an unknown driver-site address answers 404 with the site's navigation and a way home, signed out and signed in",
  PHONE,
  async ({ page }) => {
    const missing = `/no-such-page-${Date.now().toString(36)}`;
    expect((await page.goto(missing))?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    const nav = page.getByRole("navigation", { name: "Site" });
    await expect(nav.getByRole("link", { name: "Wayline" })).toBeVisible();
    await expect(await headerLink(nav, "Sign in")).toBeVisible();
    await expectAccessible(page);
    await shot(page, "not-found-signed-out");
    await page.getByRole("main").getByRole("link", { name: "Go to the home page" }).click();
    await expect(page).toHaveURL(`${baseUrl()}/`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your vehicles, where they are.");

    const driver = await newDriver("not-found");
    await signIn(page, driver);
    expect((await page.goto(missing))?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    await expect(nav).toContainText("Dana Driver");
    await expect(await headerLink(nav, "Account")).toBeVisible();
    await shot(page, "not-found-signed-in");
    await page.getByRole("main").getByRole("link", { name: "Back to your vehicles" }).click();
    await page.waitForURL((url) => url.pathname === "/map");
  },
);

test(
  "an unknown console address answers 404 with the console's navigation and a way back, signed out and signed in",
  PHONE,
  async ({ page }) => {
    for (const missing of ["/console/no-such-page", "/console/apps/1/no-such-tab"]) {
      expect((await page.goto(missing))?.status(), missing).toBe(404);
      await expect(page.getByRole("heading", { level: 1, name: "Not found" })).toBeVisible();
      // The console's header, not the driver site's.
      await expect(page.getByRole("navigation", { name: "Site" })).toHaveCount(0);
      await expect(
        page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: /partner console/ }),
      ).toBeVisible();
    }
    await expectAccessible(page);
    await page.getByRole("main").getByRole("link", { name: "Go to the console" }).click();
    await page.waitForURL((url) => url.pathname === "/console/sign-in");

    await page.getByLabel("E-mail").fill(demoPartner.email);
    await page.getByLabel("Password").fill(demoPartner.password);
    await page.locator("form").getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((url) => url.pathname === "/console/apps");
    expect((await page.goto("/console/no-such-page"))?.status()).toBe(404);
    const nav = page.getByRole("navigation", { name: "Console" });
    await expect(nav).toContainText(demoPartner.email);
    await expect(await headerLink(nav, "Apps")).toBeVisible();
    await shot(page, "console-not-found");
    await page.getByRole("main").getByRole("link", { name: "Back to your apps" }).click();
    await expect(page.getByRole("list", { name: "Apps" })).toContainText("Wayline Demo");
  },
);

test.describe("on a 375-pixel phone", () => {
  test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

  test("the driver site's links are behind a Menu button, which opens by touch or keyboard, closes on Escape, and a link in it navigates", async ({
    page,
  }) => {
    await signIn(page, await newDriver("menu"));
    const nav = page.getByRole("navigation", { name: "Site" });
    const menu = nav.getByRole("button", { name: "Menu" });
    const panel = page.locator(`#${await menu.getAttribute("aria-controls")}`);
    const links = ["API reference", "Partner console", "Map", "Account", "Connected apps"].map((name) =>
      nav.getByRole("link", { name, exact: true }),
    );

    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(panel).toBeHidden();
    for (const link of links) await expect(link).toBeHidden();
    await expect(nav.getByRole("button", { name: "Sign out" })).toBeHidden();
    // Folded, the header is one row: the name and the button.
    expect((await page.getByRole("banner").boundingBox())!.height).toBeLessThan(70);
    await shot(page, "menu-closed-375");

    await menu.click();
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    for (const link of links) await expect(link).toBeVisible();
    await expect(nav.getByRole("button", { name: "Sign out" })).toBeVisible();
    await expectAccessible(page);
    await shot(page, "menu-open-375");

    await page.keyboard.press("Escape");
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(menu).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("Tab");
    await expect(links[0]!).toBeFocused();

    await nav.getByRole("link", { name: "Account", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/account");
    await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();
    await expect(nav.getByRole("button", { name: "Menu" })).toHaveAttribute("aria-expanded", "false");
    await expect(nav.getByRole("link", { name: "Map", exact: true })).toBeHidden();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
  });

  test("the console's links are behind a Menu button too, and a link in it navigates", async ({ page }) => {
    await page.goto("/console/sign-in");
    const nav = page.getByRole("navigation", { name: "Console" });
    const menu = nav.getByRole("button", { name: "Menu" });
    const reference = nav.getByRole("link", { name: "API reference" });
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(reference).toBeHidden();
    await menu.click();
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await expect(reference).toBeVisible();
    await expect(nav.getByRole("link", { name: "Sign in" })).toBeVisible();
    await shot(page, "console-menu-open-375");
    await reference.click();
    await page.waitForURL((url) => url.pathname === "/docs");
    await expect(nav.getByRole("button", { name: "Menu" })).toHaveAttribute("aria-expanded", "false");
    await expect(nav.getByRole("link", { name: "API reference" })).toBeHidden();
  });
});

test(
  "each vehicle's marker shows its label beside it, the missing-tiles notice covers none of them, and the road data is credited once",
  PHONE,
  async ({ page }) => {
    const driver = await newDriver("labels");
    const west = await driver.addVehicle("West label car");
    const east = await driver.addVehicle("East label car");
    const at = new Date(Date.now() - 60_000);
    await driver.post(west, [dataSet(at, "OFF", 39.96, -83.0)]);
    await driver.post(east, [dataSet(at, "RUNNING", 39.9, -82.9, 30)]);
    await signIn(page, driver);

    // Tiles never load here, so the notice is there.
    const notice = page.getByTestId("map-notice");
    await expect(notice).toHaveText("Map background could not load; positions are still shown.");
    const noticeBox = (await notice.boundingBox())!;
    const mapArea = (await page.getByTestId("vehicle-map").locator(".leaflet-container").boundingBox())!;

    for (const [id, label] of [
      [west, "West label car"],
      [east, "East label car"],
    ] as const) {
      const marker = page.locator(`[data-vehicle-id="${id}"][data-latitude]`);
      const text = page.locator(`[data-vehicle-label="${id}"]`);
      await expect(marker).toBeVisible();
      await expect(text).toBeVisible();
      await expect(text).toHaveText(label);
      const m = (await marker.boundingBox())!;
      const t = (await text.boundingBox())!;
      // Beside the marker: just right of it, level with its centre, inside the map.
      expect(t.x).toBeGreaterThanOrEqual(m.x + m.width);
      expect(t.x).toBeLessThan(m.x + m.width + 12);
      expect(t.y).toBeLessThan(m.y + m.height / 2);
      expect(t.y + t.height).toBeGreaterThan(m.y + m.height / 2);
      expect(overlaps(t, mapArea)).toBe(true);
      // The notice hides neither the marker nor its label.
      expect(overlaps(noticeBox, m)).toBe(false);
      expect(overlaps(noticeBox, t)).toBe(false);
    }
    // Nor anything else the map may show: it is outside the map's area altogether (below it).
    expect(overlaps(noticeBox, mapArea)).toBe(false);
    expect(noticeBox.y).toBeGreaterThanOrEqual(mapArea.y + mapArea.height - 1);

    // The tile attribution (OpenStreetMap's, here) already credits the road data's contributors: one link, not two.
    const attribution = page.locator(".leaflet-control-attribution");
    await expect(attribution).toContainText("OpenStreetMap");
    await expect(attribution.locator('a[href="https://www.openstreetmap.org/copyright"]')).toHaveCount(1);
    await shot(page, "map-labels-notice");
  },
);
