// CI's front door, in the browser: open the sign-in link `npm start` printed, sign in with the
// printed demo driver credentials as they are (no environment chosen by hand), and see a vehicle
// marker on the map. Run from the fresh clone: node .ci/front-door-sign-in.mjs LINK USER PASSWORD
import { chromium } from "playwright-core";

const [link, username, password] = process.argv.slice(2);
if (!link || !username || !password) throw new Error("usage: front-door-sign-in.mjs LINK USERNAME PASSWORD");

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium", // Debian's: browsers are never downloaded here
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
});
try {
  const context = await browser.newContext();
  // Nothing leaves the machine (the map's tiles included): the map must show markers without them.
  await context.route(
    (url) => !/^https?:\/\/(127\.0\.0\.1|localhost)(:\d+)?\//.test(url.href),
    (route) => route.abort("blockedbyclient"),
  );
  const page = await context.newPage();
  const response = await page.goto(link);
  if (response?.status() !== 200) throw new Error(`${link} answered ${response?.status()}`);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("form", { name: "Sign in" }).getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/map$/, { timeout: 30_000 });
  const marker = page.locator(".leaflet-marker-icon [data-vehicle-id][data-latitude]").first();
  await marker.waitFor({ state: "visible", timeout: 60_000 });
  console.log(
    `front door: signed in as ${username} at ${link}; the map shows a marker for vehicle ${await marker.getAttribute("data-vehicle-id")}`,
  );
} finally {
  await browser.close();
}
