import { beforeAll, describe, expect, it } from "vitest";
import { api, createDriver, tokenRequest, uniqueName } from "@/test/helpers/api";
import { authorizeUrl, Browser, redirectParams, visibleText } from "@/test/helpers/browser";
import { createPartnerApp } from "@/test/helpers/fixtures";
import type { TestApp } from "@/test/integration/global-setup";
import {
  apiStatus,
  authorizeCode,
  CALLBACK,
  codeRequest,
  exchangeCode,
  nativeApp,
  newDriver,
  pkcePair,
  webApp,
} from "@/test/helpers/oauth-flow";

// The authorization page end to end (docs/oauth.md#authorization-page): sign-in or registration, consent,
// the redirect back to the app, and what the app then holds.

describe("the authorization page", () => {
  it.each([
    "/OAuth/authorize",
    "/oauth/authorize",
    "/OAUTH/Authorize",
    "/sandbox/OAuth/authorize",
    "/sandbox/oauth/authorize",
  ])("%s without a session → 302 to the sign-in step of the same request", async (path) => {
    const params = codeRequest(webApp());
    const res = await new Browser().get(authorizeUrl(params, path));
    expect(res.status).toBe(302);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const next = new URL(res.location!, "http://x");
    expect(next.pathname).toBe("/oauth/authorize/continue");
    expect(Object.fromEntries(next.searchParams)).toEqual(params);
  });

  it("the sign-in step names the app and its environment and offers registration", async () => {
    const step = await new Browser().authorize(authorizeUrl(codeRequest(webApp())));
    expect(step.kind).toBe("sign-in");
    if (step.kind !== "sign-in") return;
    expect(visibleText(step.page.text)).toContain("Sign in to continue to Fleet Web");
    expect(visibleText(step.page.text)).toContain("Sandbox");
    expect(visibleText(step.page.text)).toContain("Create account");
  });

  it("register → consent naming the app, its owner, what it gets and where the driver goes → code → tokens for that account", async () => {
    const { browser, username } = await newDriver();
    const params = codeRequest(webApp());
    const step = await browser.authorize(authorizeUrl(params));
    expect(step.kind).toBe("consent");
    if (step.kind !== "consent") return;
    expect(visibleText(step.page.text)).toContain("Allow Fleet Web to access your account?");
    expect(visibleText(step.page.text)).toContain("Fleet Co Inc.");
    expect(visibleText(step.page.text)).toContain("see and manage your vehicles");
    expect(visibleText(step.page.text)).toContain("keep this access until you revoke it");
    expect(visibleText(step.page.text)).toContain("partner.example");
    expect(visibleText(step.page.text)).toContain(username);

    const answer = await browser.decide(step, "allow");
    expect(answer.status).toBe(303);
    const back = redirectParams(answer.location!);
    expect(answer.location!.startsWith(`${CALLBACK}?code=`)).toBe(true);
    expect(back.state).toBe(params.state);

    const tokens = await exchangeCode(webApp(), back.code!);
    expect(tokens.status, tokens.text).toBe(200);
    expect(tokens.body).toEqual({
      access_token: expect.any(String),
      token_type: "bearer",
      expires_in: 86400,
      refresh_token: expect.any(String),
    });
    const me = await api("sandbox").get("/account/", tokens.body.access_token);
    expect(me.status).toBe(200);
    expect(me.body.account.map((a: { username: string }) => a.username)).toEqual([username]);
  });

  it("a driver who allowed the app before is sent straight back with a new code, without being asked", async () => {
    const { browser } = await newDriver();
    await authorizeCode(browser, codeRequest(webApp()));
    const again = await browser.authorize(authorizeUrl(codeRequest(webApp())));
    expect(again.kind).toBe("redirect");
    if (again.kind !== "redirect") return;
    expect(again.status).toBe(302);
    expect(redirectParams(again.location).code).toBeTruthy();
  });

  it("an account the app created counts as consent: its driver is sent straight back", async () => {
    const driver = await createDriver("sandbox", webApp());
    const browser = new Browser();
    const signIn = await browser.signIn("sandbox", driver.account.username, "correct-horse-1");
    expect(signIn.status, JSON.stringify(signIn.problem)).toBe(200);
    const step = await browser.authorize(authorizeUrl(codeRequest(webApp())));
    expect(step.kind).toBe("redirect");
  });

  it("prompt=consent asks again although the driver allowed the app before", async () => {
    const { browser } = await newDriver();
    await authorizeCode(browser, codeRequest(webApp()));
    expect((await browser.authorize(authorizeUrl(codeRequest(webApp(), { prompt: "consent" })))).kind).toBe("consent");
  });

  it("prompt=login shows the sign-in step although the driver is signed in", async () => {
    const { browser } = await newDriver();
    expect((await browser.authorize(authorizeUrl(codeRequest(webApp(), { prompt: "login" })))).kind).toBe("sign-in");
  });

  it("prompt=none: login_required when signed out, consent_required before consent, a code after", async () => {
    const params = () => codeRequest(webApp(), { prompt: "none" });
    const out = await new Browser().authorize(authorizeUrl(params()));
    expect(out.kind === "redirect" && redirectParams(out.location).error).toBe("login_required");

    const { browser } = await newDriver();
    const request = params();
    const before = await browser.authorize(authorizeUrl(request));
    expect(before.kind === "redirect" && redirectParams(before.location)).toMatchObject({
      error: "consent_required",
      state: request.state,
    });

    await authorizeCode(browser, codeRequest(webApp()));
    const after = await browser.authorize(authorizeUrl(params()));
    expect(after.kind === "redirect" && redirectParams(after.location).code).toBeTruthy();
  });

  it("Deny → access_denied with state, no grant: the next request asks again", async () => {
    const { browser } = await newDriver();
    const params = codeRequest(webApp());
    const step = await browser.authorize(authorizeUrl(params));
    const answer = await browser.decide(step, "deny");
    expect(answer.status).toBe(303);
    expect(answer.location!.startsWith(`${CALLBACK}?`)).toBe(true);
    expect(redirectParams(answer.location!)).toEqual({
      error: "access_denied",
      error_description: expect.any(String),
      state: params.state,
    });
    expect((await browser.authorize(authorizeUrl(codeRequest(webApp())))).kind).toBe("consent");
  });

  it("response_type=token → access_token, token_type bearer, expires_in 86400 and state in the query; no refresh token; the token works", async () => {
    const { browser } = await newDriver();
    const params = { client_id: webApp().clientId, redirect_uri: CALLBACK, response_type: "token", state: "st-1" };
    const location = await browser.authorizeAndAllow(authorizeUrl(params));
    const got = redirectParams(location);
    expect(got).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      token_type: "bearer",
      expires_in: "86400",
      state: "st-1",
    });
    expect(location.hash).toBe("");
    expect(await apiStatus(got.access_token!)).toBe(200);
  });

  it("the implicit consent says the access lasts 24 hours", async () => {
    const { browser } = await newDriver();
    const step = await browser.authorize(
      authorizeUrl({ client_id: webApp().clientId, redirect_uri: CALLBACK, response_type: "token" }),
    );
    expect(step.kind === "consent" && visibleText(step.page.text)).toContain("for 24 hours");
  });

  it("response_mode=fragment → the code and state in the fragment, nothing in the query", async () => {
    const { browser } = await newDriver();
    const params = codeRequest(webApp(), { response_mode: "fragment" });
    const location = await browser.authorizeAndAllow(authorizeUrl(params));
    expect(location.search).toBe("");
    expect(redirectParams(location, "fragment")).toEqual({ code: expect.any(String), state: params.state });
  });

  it("a registered redirect URI with a query string gets the code joined with &", async () => {
    const { browser } = await newDriver();
    const params = codeRequest(webApp(), { redirect_uri: "https://partner.example/cb?tenant=acme" });
    const location = await browser.authorizeAndAllow(authorizeUrl(params));
    expect(location.toString().startsWith("https://partner.example/cb?tenant=acme&code=")).toBe(true);
    const { code } = redirectParams(location);
    expect(
      (await exchangeCode(webApp(), code!, { redirect_uri: "https://partner.example/cb?tenant=acme" })).status,
    ).toBe(200);
  });

  it("a custom-scheme redirect URI (carlocator://) gets the code", async () => {
    const { browser } = await newDriver();
    const params = codeRequest(webApp(), { redirect_uri: "carlocator://oauth/callback" });
    const step = await browser.authorize(authorizeUrl(params));
    const answer = await browser.decide(step, "allow");
    expect(answer.location!.startsWith("carlocator://oauth/callback?code=")).toBe(true);
  });

  it("a public app with PKCE: code exchanged with client_id and code_verifier only", async () => {
    const { browser } = await newDriver();
    const { verifier, challenge } = pkcePair();
    const app = nativeApp();
    const { code } = await authorizeCode(
      browser,
      codeRequest(app, {
        redirect_uri: "carlocator://oauth/callback",
        code_challenge: challenge,
        code_challenge_method: "S256",
      }),
    );
    const res = await tokenRequest({
      grant_type: "authorization_code",
      code,
      redirect_uri: "carlocator://oauth/callback",
      client_id: app.clientId,
      code_verifier: verifier,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.refresh_token).toEqual(expect.any(String));
    expect(await apiStatus(res.body.access_token)).toBe(200);
  });
});

describe("a redirect URI with a fragment (the original's single-page apps)", () => {
  // Registered with the operator CLI, like the original's sample app: `http://host:port/#/authorized`.
  const SPA = "http://127.0.0.1:8080/#/authorized";
  const SPA_WITH_QUERY = "https://spa.example/app#/authorized?tenant=acme";
  let spa: TestApp;
  beforeAll(async () => {
    spa = await createPartnerApp(uniqueName("Legacy SPA"), { redirectUris: [SPA, SPA_WITH_QUERY] });
  });

  /** The parameters after "#/authorized?", where the sample app reads them. */
  const inFragment = (location: URL) =>
    Object.fromEntries(new URLSearchParams(location.hash.slice(location.hash.indexOf("?") + 1)));

  it("response_type=token → access_token, token_type, expires_in and state inside the fragment, nothing in the query; the token works", async () => {
    const { browser, username } = await newDriver();
    const location = await browser.authorizeAndAllow(
      authorizeUrl(
        { client_id: spa.sandbox.clientId, redirect_uri: SPA, response_type: "token", state: "legacy-1" },
        "/sandbox/OAuth/authorize",
      ),
    );
    expect(location.toString().startsWith(`${SPA}?access_token=`)).toBe(true);
    expect(location.search).toBe("");
    const got = inFragment(location);
    expect(got).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      token_type: "bearer",
      expires_in: "86400",
      state: "legacy-1",
    });
    const me = await api("sandbox").get("/account/", got.access_token);
    expect(me.status).toBe(200);
    expect(me.body.account.map((a: { username: string }) => a.username)).toEqual([username]);
  });

  it("a registered fragment that already has a ? gets the answer joined with &", async () => {
    const { browser } = await newDriver();
    const location = await browser.authorizeAndAllow(
      authorizeUrl({
        client_id: spa.sandbox.clientId,
        redirect_uri: SPA_WITH_QUERY,
        response_type: "token",
        state: "legacy-2",
      }),
    );
    expect(location.toString().startsWith(`${SPA_WITH_QUERY}&access_token=`)).toBe(true);
    expect(inFragment(location)).toMatchObject({ tenant: "acme", token_type: "bearer", state: "legacy-2" });
  });

  it("response_mode=fragment changes nothing: the answer is still inside the registered fragment", async () => {
    const { browser } = await newDriver();
    const location = await browser.authorizeAndAllow(
      authorizeUrl({
        client_id: spa.sandbox.clientId,
        redirect_uri: SPA,
        response_type: "token",
        response_mode: "fragment",
      }),
    );
    expect(location.toString().startsWith(`${SPA}?access_token=`)).toBe(true);
  });

  it("Deny → error=access_denied, error_description and state inside the fragment", async () => {
    const { browser } = await newDriver();
    const step = await browser.authorize(
      authorizeUrl({
        client_id: spa.sandbox.clientId,
        redirect_uri: SPA,
        response_type: "token",
        state: "legacy-deny",
      }),
    );
    const answer = await browser.decide(step, "deny");
    expect(answer.status).toBe(303);
    expect(answer.location!.startsWith(`${SPA}?error=access_denied`)).toBe(true);
    expect(inFragment(new URL(answer.location!))).toEqual({
      error: "access_denied",
      error_description: expect.any(String),
      state: "legacy-deny",
    });
  });

  it("an error after the redirect URI check (prompt=none while signed out) goes inside the fragment too", async () => {
    const res = await new Browser().get(
      authorizeUrl({
        client_id: spa.sandbox.clientId,
        redirect_uri: SPA,
        response_type: "token",
        prompt: "none",
        state: "legacy-none",
      }),
    );
    expect(res.status).toBe(302);
    expect(res.location!.startsWith(`${SPA}?error=login_required`)).toBe(true);
    expect(inFragment(new URL(res.location!))).toMatchObject({ error: "login_required", state: "legacy-none" });
  });

  it.each<Record<string, string>>([
    {},
    { response_mode: "fragment" },
    { code_challenge: pkcePair().challenge, code_challenge_method: "S256" },
  ])("response_type=code to it (%o) → 400 error page saying why, never a redirect", async (extra) => {
    const res = await new Browser().get(
      authorizeUrl({
        client_id: spa.sandbox.clientId,
        redirect_uri: SPA,
        response_type: "code",
        state: "legacy-code",
        ...extra,
      }),
    );
    expect(res.status).toBe(400);
    expect(res.location).toBeNull();
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(visibleText(res.text)).toContain("with a fragment");
    expect(visibleText(res.text)).toContain("response_type=token");
  });

  it.each([
    ["another fragment", "http://127.0.0.1:8080/#/other"],
    ["the URI without its fragment", "http://127.0.0.1:8080/"],
    ["an empty fragment", "http://127.0.0.1:8080/#"],
    ["more after the fragment", "http://127.0.0.1:8080/#/authorized?x=1"],
  ])("the fragment is matched exactly: %s → 400 error page", async (_, uri) => {
    const res = await new Browser().get(
      authorizeUrl({ client_id: spa.sandbox.clientId, redirect_uri: uri, response_type: "token" }),
    );
    expect(res.status).toBe(400);
    expect(res.location).toBeNull();
    expect(visibleText(res.text)).toContain("did not register the address");
  });
});

describe("environments on the authorization page", () => {
  it("a production app with a production account: the code's token works on /v1/api and not on /sandbox/api", async () => {
    const { browser } = await newDriver("production");
    const { code } = await authorizeCode(browser, codeRequest(webApp("production")));
    const tokens = await exchangeCode(webApp("production"), code);
    expect(tokens.status, tokens.text).toBe(200);
    expect(await apiStatus(tokens.body.access_token, "production")).toBe(200);
    expect(await apiStatus(tokens.body.access_token, "sandbox")).toBe(401);
  });

  it("a sandbox app at /oauth/authorize (the client id decides) for a sandbox driver", async () => {
    const { browser } = await newDriver("sandbox");
    const { code } = await authorizeCode(browser, codeRequest(webApp("sandbox")), "/oauth/authorize");
    expect((await exchangeCode(webApp("sandbox"), code)).status).toBe(200);
  });

  it("a production session does not count for a sandbox app: the sign-in step says so", async () => {
    const { browser, username } = await newDriver("production");
    const step = await browser.authorize(authorizeUrl(codeRequest(webApp("sandbox"))));
    expect(step.kind).toBe("sign-in");
    expect(step.kind === "sign-in" && visibleText(step.page.text)).toContain(
      `You are signed in to production as ${username}`,
    );
  });

  it("a sandbox username does not sign in to production", async () => {
    const { username, password } = await newDriver("sandbox");
    const res = await new Browser().signIn("production", username, password);
    expect(res.status).toBe(401);
    expect(res.problem).toEqual({ kind: "invalid_credentials", waitSeconds: 0 });
  });
});
