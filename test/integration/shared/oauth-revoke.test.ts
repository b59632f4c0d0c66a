import { describe, expect, it } from "vitest";
import { createDriver, request, tokenRequest, type Credentials } from "@/test/helpers/api";
import { authorizeUrl, baseUrl, Browser, hiddenFields, visibleText } from "@/test/helpers/browser";
import { apps, expectOAuthError } from "@/test/helpers/fixtures";
import {
  apiStatus,
  authorizeCode,
  codeRequest,
  exchangeCode,
  nativeApp,
  newDriver,
  pkcePair,
  webApp,
} from "@/test/helpers/oauth-flow";

// Taking access away: RFC 7009 for apps (/oauth/revoke) and the driver's connected-apps page.

function revoke(form: Record<string, string>, opts: { basic?: Credentials; path?: string } = {}) {
  const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" };
  if (opts.basic)
    headers.Authorization = `Basic ${Buffer.from(`${opts.basic.clientId}:${opts.basic.clientSecret}`).toString("base64")}`;
  return request("POST", `${baseUrl()}${opts.path ?? "/oauth/revoke"}`, {
    body: new URLSearchParams(form).toString(),
    headers,
  });
}

/** A driver who allowed the web app, and the app's tokens. */
async function authorizedDriver() {
  const driver = await newDriver();
  const { code } = await authorizeCode(driver.browser, codeRequest(webApp()));
  const tokens = await exchangeCode(webApp(), code);
  expect(tokens.status).toBe(200);
  return { ...driver, access: tokens.body.access_token as string, refresh: tokens.body.refresh_token as string };
}

describe("POST /oauth/revoke (RFC 7009)", () => {
  it("an access token → 200; it and its refresh token stop working at once", async () => {
    const { access, refresh } = await authorizedDriver();
    const res = await revoke({ token: access, token_type_hint: "access_token" }, { basic: webApp() });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await apiStatus(access)).toBe(401);
    expectOAuthError(
      await tokenRequest({ grant_type: "refresh_token", refresh_token: refresh }, { basic: webApp() }),
      400,
      "invalid_grant",
    );
  });

  it("a refresh token (no hint, form credentials) → 200; the access token of its family stops working too", async () => {
    const { access, refresh } = await authorizedDriver();
    const res = await revoke({ token: refresh, client_id: webApp().clientId, client_secret: webApp().clientSecret });
    expect(res.status).toBe(200);
    expect(await apiStatus(access)).toBe(401);
  });

  it("revoking a token of an account ends the app's access: tokens of other families fail too, and consent is asked again", async () => {
    const { browser, access } = await authorizedDriver();
    // A second family for the same account, issued before the revocation.
    const { code } = await authorizeCode(browser, codeRequest(webApp()));
    const other = await exchangeCode(webApp(), code);
    expect(other.status).toBe(200);
    expect(await apiStatus(other.body.access_token as string)).toBe(200);
    expect((await revoke({ token: access }, { basic: webApp() })).status).toBe(200);
    expect(await apiStatus(other.body.access_token as string)).toBe(401);
    expectOAuthError(
      await tokenRequest({ grant_type: "refresh_token", refresh_token: other.body.refresh_token }, { basic: webApp() }),
      400,
      "invalid_grant",
    );
    expect((await browser.authorize(authorizeUrl(codeRequest(webApp())))).kind).toBe("consent");
  });

  it("an unknown token → 200 (nothing to say about tokens that do not exist)", async () => {
    expect((await revoke({ token: "no-such-token" }, { basic: webApp() })).status).toBe(200);
  });

  it("another app's token → 200, and the token keeps working", async () => {
    const { access } = await authorizedDriver();
    expect((await revoke({ token: access }, { basic: apps().other.sandbox })).status).toBe(200);
    expect(await apiStatus(access)).toBe(200);
  });

  it("a public app revokes its token with its client_id alone", async () => {
    const { browser } = await newDriver();
    const { verifier, challenge } = pkcePair();
    const { code } = await authorizeCode(
      browser,
      codeRequest(nativeApp(), {
        redirect_uri: "carlocator://oauth/callback",
        code_challenge: challenge,
        code_challenge_method: "S256",
      }),
    );
    const tokens = await tokenRequest({
      grant_type: "authorization_code",
      code,
      redirect_uri: "carlocator://oauth/callback",
      client_id: nativeApp().clientId,
      code_verifier: verifier,
    });
    expect((await revoke({ token: tokens.body.access_token, client_id: nativeApp().clientId })).status).toBe(200);
    expect(await apiStatus(tokens.body.access_token)).toBe(401);
  });

  it("without client authentication → 401 invalid_client", async () => {
    const { access } = await authorizedDriver();
    const res = await revoke({ token: access });
    expectOAuthError(res, 401, "invalid_client");
    expect(res.headers.get("www-authenticate")).toMatch(/^Basic /);
    expect(await apiStatus(access)).toBe(200);
  });

  it("with a wrong secret → 401 invalid_client", async () => {
    expectOAuthError(
      await revoke({ token: "x" }, { basic: { ...webApp(), clientSecret: "wls_wrong" } }),
      401,
      "invalid_client",
    );
  });

  it("without a token → 400 invalid_request", async () => {
    expectOAuthError(await revoke({}, { basic: webApp() }), 400, "invalid_request");
  });

  it("a JSON body → 400 invalid_request", async () => {
    expectOAuthError(
      await request("POST", `${baseUrl()}/oauth/revoke`, { json: { token: "x" } }),
      400,
      "invalid_request",
    );
  });

  it("/sandbox/oauth/revoke refuses a production client → 401 invalid_client", async () => {
    expectOAuthError(
      await revoke({ token: "x" }, { basic: webApp("production"), path: "/sandbox/oauth/revoke" }),
      401,
      "invalid_client",
    );
  });
});

describe("the connected-apps page", () => {
  async function appsPage(browser: Browser) {
    const page = await browser.get("/connected-apps");
    expect(page.status).toBe(200);
    return page;
  }

  it("signed out → 307 to /login, coming back afterwards", async () => {
    const res = await new Browser().get("/connected-apps");
    expect([302, 303, 307]).toContain(res.status);
    expect(res.location).toContain("/login?callbackUrl=%2Fconnected-apps");
  });

  it("lists the apps the driver allowed, with their owner; a new driver sees none", async () => {
    const { browser } = await newDriver();
    expect(visibleText((await appsPage(browser)).text)).toContain("No app has access to your account.");
    await authorizeCode(browser, codeRequest(webApp()));
    const text = visibleText((await appsPage(browser)).text);
    expect(text).toContain("Fleet Web");
    expect(text).toContain("By Fleet Co Inc.");
    expect(text).toContain("Allowed by you");
  });

  it("Revoke → 303 back to the list; every token of the app stops working at once, the next request asks for consent again", async () => {
    const { browser, access, refresh } = await authorizedDriver();
    // A second token family and an unused code, issued before the revocation.
    const { code: second } = await authorizeCode(browser, codeRequest(webApp()));
    const other = await exchangeCode(webApp(), second);
    const { code: unused } = await authorizeCode(browser, codeRequest(webApp()));

    const form = hiddenFields((await appsPage(browser)).text);
    const res = await browser.post("/connected-apps/revoke", form);
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/^\/connected-apps\?revoked=\d+$/);

    expect(await apiStatus(access)).toBe(401);
    expect(await apiStatus(other.body.access_token)).toBe(401);
    expectOAuthError(
      await tokenRequest({ grant_type: "refresh_token", refresh_token: refresh }, { basic: webApp() }),
      400,
      "invalid_grant",
    );
    expectOAuthError(await exchangeCode(webApp(), unused), 400, "invalid_grant");

    const after = visibleText((await browser.get(res.location!)).text);
    expect(after).toContain("Fleet Web no longer has access to your account.");
    expect(after).toContain("No app has access to your account.");
    expect((await browser.authorize(authorizeUrl(codeRequest(webApp())))).kind).toBe("consent");
  });

  it("an app that created the account can be revoked too", async () => {
    const driver = await createDriver("sandbox", webApp());
    const browser = new Browser();
    await browser.signIn("sandbox", driver.account.username, "correct-horse-1");
    expect(visibleText((await appsPage(browser)).text)).toContain("Created your account");
    await browser.post("/connected-apps/revoke", hiddenFields((await appsPage(browser)).text));
    expect(await apiStatus(driver.accessToken)).toBe(401);
  });

  it("Revoke without its CSRF token → 403 and the app keeps access", async () => {
    const { browser, access } = await authorizedDriver();
    const form = hiddenFields((await appsPage(browser)).text);
    const res = await browser.post("/connected-apps/revoke", { ...form, csrf_token: "forged" });
    expect(res.status).toBe(403);
    expect(await apiStatus(access)).toBe(200);
  });

  it("Revoke posted from another origin → 403", async () => {
    const { browser, access } = await authorizedDriver();
    const form = hiddenFields((await appsPage(browser)).text);
    expect((await browser.post("/connected-apps/revoke", form, { Origin: "https://evil.example" })).status).toBe(403);
    expect(await apiStatus(access)).toBe(200);
  });

  it("Revoke refusals are their status and reason in plain text, never cached; signed out → 303 to sign in", async () => {
    const { browser, access } = await authorizedDriver();
    const form = hiddenFields((await appsPage(browser)).text);
    const refusal = (res: { status: number; text: string; headers: Headers }) => ({
      status: res.status,
      text: res.text,
      type: res.headers.get("content-type"),
      cache: res.headers.get("cache-control"),
    });
    const plain = { type: "text/plain; charset=utf-8", cache: "no-store" };
    expect(refusal(await browser.post("/connected-apps/revoke", form, { Origin: "https://evil.example" }))).toEqual({
      status: 403,
      text: "This request came from another site and was ignored.",
      ...plain,
    });
    expect(refusal(await browser.post("/connected-apps/revoke", { ...form, csrf_token: "forged" }))).toEqual({
      status: 403,
      text: "This form has expired: reload the page and try again.",
      ...plain,
    });
    expect(refusal(await browser.post("/connected-apps/revoke", { csrf_token: form.csrf_token! }))).toEqual({
      status: 400,
      text: "The revoke form is incomplete.",
      ...plain,
    });
    expect(refusal(await browser.post("/connected-apps/revoke", form, { "Content-Type": "application/json" }))).toEqual(
      { status: 400, text: "The revoke form could not be read.", ...plain },
    );
    const signedOut = await new Browser().post("/connected-apps/revoke", form);
    expect({ status: signedOut.status, location: signedOut.location }).toEqual({
      status: 303,
      location: "/login?callbackUrl=%2Fconnected-apps",
    });
    expect(await apiStatus(access)).toBe(200);
  });

  it("the form acts on the signed-in account only: another driver's app id changes nothing", async () => {
    const victim = await authorizedDriver();
    const attacker = await newDriver();
    await authorizeCode(attacker.browser, codeRequest(apps().other.sandbox));
    const attackerForm = hiddenFields((await appsPage(attacker.browser)).text);
    const victimAppId = hiddenFields((await appsPage(victim.browser)).text).app_id!;
    const res = await attacker.browser.post("/connected-apps/revoke", { ...attackerForm, app_id: victimAppId });
    expect(res.status).toBe(303);
    expect(res.location).toBe("/connected-apps");
    expect(await apiStatus(victim.access)).toBe(200);
  });
});
