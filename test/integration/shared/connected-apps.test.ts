import { describe, expect, it, vi } from "vitest";
import { tokenRequest } from "@/test/helpers/api";
import { authorizeUrl, Browser, hiddenFields, visibleText } from "@/test/helpers/browser";
import { apiStatus, authorizeCode, codeRequest, exchangeCode, newDriver, webApp } from "@/test/helpers/oauth-flow";

// The driver's connected-apps page (docs/driver-site.md): what each app can do, in the words of
// the consent screen the driver answered, and when it last used its access, moved by the API's
// acceptance of its tokens (stamped off the request's way: the test waits for the stamp, up to
// a generous bound, rather than for a time) and by each token it is issued.

const ABILITIES = [
  "see your account details: name, e-mail, phone, zip code and time zone",
  "see and manage your vehicles, with their positions, trips and device data",
  "be notified of your vehicles' events",
];

async function appsPage(browser: Browser) {
  const page = await browser.get("/connected-apps");
  expect(page.status).toBe(200);
  return page.text;
}

/** The instant the page gives as the app's last use (the dateTime of its <time>), or null for "Not yet". */
function lastUsed(html: string): string | null {
  const at = html.indexOf('data-field="last-used"');
  expect(at, "the page has no last-used field").toBeGreaterThan(-1);
  const field = html.slice(at, html.indexOf("</dd>", at));
  return /<time\b[^>]*\bdatetime="([^"]+)"/i.exec(field)?.[1] ?? null;
}

async function lastUsedMovesPast(browser: Browser, before: string): Promise<string> {
  let seen: string | null = null;
  await vi.waitFor(
    async () => {
      seen = lastUsed(await appsPage(browser));
      expect(seen && Date.parse(seen)).toBeGreaterThan(Date.parse(before));
    },
    { timeout: 20_000, interval: 100 },
  );
  return seen!;
}

describe("the connected-apps page", () => {
  it("lists what the app can do in the consent screen's words, the grant's date and the last use, in the driver's time zone", async () => {
    const { browser } = await newDriver();
    const consent = await browser.authorize(authorizeUrl(codeRequest(webApp())));
    expect(consent.kind).toBe("consent");
    const asked = visibleText(consent.kind === "consent" ? consent.page.text : "");
    for (const ability of ABILITIES) expect(asked).toContain(`${ability};`);

    await browser.authorizeAndAllow(authorizeUrl(codeRequest(webApp())));
    const html = await appsPage(browser);
    const text = visibleText(html);
    expect(text).toContain("Fleet Web");
    expect(text).toContain("By Fleet Co Inc.");
    expect(text).toContain("It can, until you revoke it:");
    for (const ability of ABILITIES) expect(text).toContain(`${ability.charAt(0).toUpperCase()}${ability.slice(1)}.`);
    // Allowed a moment ago; no token issued yet. The account's zone is Europe/Berlin.
    expect(text).toMatch(/Allowed by you just now \([A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M GMT\+[12]\)/);
    expect(text).toContain("Last used its access Not yet");
    expect(lastUsed(html)).toBeNull();
  });

  it("last use: the code exchange, then the API accepting the access token, then a refresh each move it forward", async () => {
    const { browser } = await newDriver();
    const { code } = await authorizeCode(browser, codeRequest(webApp()));
    const tokens = await exchangeCode(webApp(), code);
    expect(tokens.status).toBe(200);
    const exchanged = lastUsed(await appsPage(browser));
    expect(exchanged).not.toBeNull();

    expect(await apiStatus(tokens.body.access_token)).toBe(200);
    const used = await lastUsedMovesPast(browser, exchanged!);

    const refreshed = await tokenRequest(
      { grant_type: "refresh_token", refresh_token: tokens.body.refresh_token },
      { basic: webApp() },
    );
    expect(refreshed.status).toBe(200);
    // Issuing a token is recorded with the token itself: no wait.
    const afterRefresh = lastUsed(await appsPage(browser));
    expect(Date.parse(afterRefresh!)).toBeGreaterThan(Date.parse(used));
    expect(visibleText(await appsPage(browser))).toMatch(/Last used its access just now \(/);
  });

  it("a token rejected by the API (revoked with the app) does not count as use, and allowing the app again starts over at Not yet", async () => {
    const { browser } = await newDriver();
    const { code } = await authorizeCode(browser, codeRequest(webApp()));
    const tokens = await exchangeCode(webApp(), code);
    expect(await apiStatus(tokens.body.access_token)).toBe(200);
    await lastUsedMovesPast(browser, new Date(0).toISOString());

    expect((await browser.post("/connected-apps/revoke", hiddenFields(await appsPage(browser)))).status).toBe(303);
    expect(await apiStatus(tokens.body.access_token)).toBe(401);
    await browser.authorizeAndAllow(authorizeUrl(codeRequest(webApp())));
    expect(lastUsed(await appsPage(browser))).toBeNull();
  });
});
