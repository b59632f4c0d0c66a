import { describe, expect, it } from "vitest";
import { apiBase, clientToken, request, testSql, tokenRequest, tokenUrl } from "@/test/helpers/api";
import { authorizeUrl, Browser, redirectParams, visibleText } from "@/test/helpers/browser";
import { apps, expectOAuthError, expireCode } from "@/test/helpers/fixtures";
import {
  apiStatus,
  authorizeCode,
  CALLBACK,
  codeRequest,
  exchangeCode,
  nativeApp,
  newDriver,
  newState,
  pkcePair,
  webApp,
} from "@/test/helpers/oauth-flow";

// The OAuth security matrix (RFC 6749, RFC 7636, RFC 9700) over real HTTP: what must never
// redirect, what must never be exchanged twice or without its proof, and what the answers must
// carry.

/** The answer of a request that must end on our error page: no redirect at all. */
async function expectErrorPage(url: string, status = 400) {
  const res = await new Browser().get(url);
  expect(res.status, res.text.slice(0, 200)).toBe(status);
  expect(res.location).toBeNull();
  expect(res.headers.get("content-type")).toMatch(/^text\/html/);
  expect(res.headers.get("cache-control")).toContain("no-store");
  return visibleText(res.text);
}

/** The answer of a request whose error goes back to the app: 302 to the registered URI, with `state`. */
async function expectErrorRedirect(
  params: Record<string, string>,
  error: string,
  mode: "query" | "fragment" = "query",
) {
  const res = await new Browser().get(authorizeUrl(params));
  expect(res.status).toBe(302);
  expect(res.location!.startsWith(params.redirect_uri!)).toBe(true);
  const got = redirectParams(res.location!, mode);
  expect(got).toEqual({
    error,
    error_description: expect.any(String),
    ...(params.state ? { state: params.state } : {}),
  });
  return got.error_description!;
}

describe("redirect URIs: exact match or our error page, never a redirect", () => {
  const variants: [string, string][] = [
    ["a trailing slash", "https://partner.example/callback/"],
    ["an upper-case host", "https://PARTNER.example/callback"],
    ["an upper-case path", "https://partner.example/Callback"],
    ["an extra query parameter", "https://partner.example/callback?next=https://evil.example"],
    ["a fragment", "https://partner.example/callback#x"],
    ["another port", "https://partner.example:8443/callback"],
    ["http instead of https", "http://partner.example/callback"],
    ["a userinfo prefix that points elsewhere", "https://partner.example@evil.example/callback"],
    ["a longer host", "https://partner.example.evil.example/callback"],
    ["an unregistered site", "https://evil.example/callback"],
    ["a loopback URI on another port", "http://127.0.0.1:8766/callback"],
    ["a registered URI's query left out", "https://partner.example/cb"],
    ["a dot segment", "https://partner.example/x/../callback"],
  ];
  it.each(variants)("redirect_uri with %s → 400 error page", async (_, uri) => {
    const text = await expectErrorPage(authorizeUrl(codeRequest(webApp(), { redirect_uri: uri })));
    expect(text).toContain("did not register the address");
  });

  it("an unknown client_id → 400 error page naming the problem", async () => {
    expect(await expectErrorPage(authorizeUrl(codeRequest({ clientId: "wl_sbx_nobody", clientSecret: "" })))).toContain(
      "Unknown app",
    );
  });

  it("no client_id → 400 error page", async () => {
    await expectErrorPage(authorizeUrl({ redirect_uri: CALLBACK, response_type: "code" }));
  });

  it("no redirect_uri (even for an app with a single registered one) → 400 error page", async () => {
    const { redirect_uri: _, ...params } = codeRequest(apps().main.sandbox);
    await expectErrorPage(authorizeUrl(params));
  });

  it("redirect_uri given twice → 400 error page", async () => {
    await expectErrorPage(
      `${authorizeUrl(codeRequest(webApp()))}&redirect_uri=${encodeURIComponent("https://evil.example/cb")}`,
    );
  });

  it("client_id given twice → 400 error page", async () => {
    await expectErrorPage(`${authorizeUrl(codeRequest(webApp()))}&client_id=${apps().other.sandbox.clientId}`);
  });

  it("another app's registered redirect URI → 400 error page", async () => {
    await expectErrorPage(
      authorizeUrl(codeRequest(apps().native.sandbox, { redirect_uri: "https://partner.example/cb?tenant=acme" })),
    );
  });

  it("a plain-http (non-loopback) URI the app registered cannot be used in production → 400 error page", async () => {
    expect(
      await expectErrorPage(
        authorizeUrl(codeRequest(webApp("production"), { redirect_uri: "http://sandbox-only.example/callback" })),
      ),
    ).toContain("production");
  });

  it("the same plain-http URI works in the sandbox", async () => {
    const { browser } = await newDriver();
    const location = await browser.authorizeAndAllow(
      authorizeUrl(codeRequest(webApp(), { redirect_uri: "http://sandbox-only.example/callback" })),
    );
    expect(location.origin).toBe("http://sandbox-only.example");
  });

  it("a production client at /sandbox/OAuth/authorize → 400 error page", async () => {
    await expectErrorPage(authorizeUrl(codeRequest(webApp("production")), "/sandbox/OAuth/authorize"));
  });

  it("the error page cannot be framed and runs no script", async () => {
    const res = await new Browser().get(
      authorizeUrl(codeRequest(webApp(), { redirect_uri: "https://evil.example/cb" })),
    );
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.text).not.toContain("<script");
  });

  it("a redirect_uri with markup is shown escaped, not rendered", async () => {
    const res = await new Browser().get(
      authorizeUrl({ client_id: "<script>alert(1)</script>", redirect_uri: CALLBACK, response_type: "code" }),
    );
    expect(res.status).toBe(400);
    expect(res.text).not.toContain("<script>alert(1)</script>");
  });
});

describe("errors that go back to the app carry state", () => {
  it("no response_type → invalid_request", async () => {
    const { response_type: _, ...params } = codeRequest(webApp());
    await expectErrorRedirect(params, "invalid_request");
  });

  it("response_type id_token → unsupported_response_type", async () => {
    await expectErrorRedirect(codeRequest(webApp(), { response_type: "id_token" }), "unsupported_response_type");
  });

  it("response_mode form_post → invalid_request", async () => {
    await expectErrorRedirect(codeRequest(webApp(), { response_mode: "form_post" }), "invalid_request");
  });

  it("response_mode=fragment puts the error in the fragment", async () => {
    await expectErrorRedirect(
      codeRequest(webApp(), {
        response_mode: "fragment",
        code_challenge_method: "plain",
        code_challenge: pkcePair().challenge,
      }),
      "invalid_request",
      "fragment",
    );
  });

  it("a parameter given twice (response_type) → invalid_request", async () => {
    const params = codeRequest(webApp());
    const res = await new Browser().get(`${authorizeUrl(params)}&response_type=token`);
    expect(redirectParams(res.location!).error).toBe("invalid_request");
  });

  it("prompt=none with another prompt → invalid_request", async () => {
    await expectErrorRedirect(codeRequest(webApp(), { prompt: "none consent" }), "invalid_request");
  });
});

describe("PKCE (RFC 7636, S256 only)", () => {
  it("code_challenge_method=plain → invalid_request", async () => {
    const { verifier } = pkcePair();
    expect(
      await expectErrorRedirect(
        codeRequest(webApp(), { code_challenge: verifier, code_challenge_method: "plain" }),
        "invalid_request",
      ),
    ).toContain("S256");
  });

  it("a code_challenge without a method (plain by default) → invalid_request", async () => {
    await expectErrorRedirect(codeRequest(webApp(), { code_challenge: pkcePair().challenge }), "invalid_request");
  });

  it("a code_challenge_method without a code_challenge → invalid_request", async () => {
    await expectErrorRedirect(codeRequest(webApp(), { code_challenge_method: "S256" }), "invalid_request");
  });

  it("a code_challenge that is not a SHA-256 → invalid_request", async () => {
    await expectErrorRedirect(
      codeRequest(webApp(), { code_challenge: "too-short", code_challenge_method: "S256" }),
      "invalid_request",
    );
  });

  it("a public app without PKCE → invalid_request", async () => {
    expect(
      await expectErrorRedirect(
        codeRequest(nativeApp(), { redirect_uri: "carlocator://oauth/callback" }),
        "invalid_request",
      ),
    ).toContain("PKCE");
  });

  it("the right code_verifier → 200", async () => {
    const { browser } = await newDriver();
    const { verifier, challenge } = pkcePair();
    const { code } = await authorizeCode(
      browser,
      codeRequest(webApp(), { code_challenge: challenge, code_challenge_method: "S256" }),
    );
    const res = await exchangeCode(webApp(), code, { redirect_uri: CALLBACK, code_verifier: verifier });
    expect(res.status, res.text).toBe(200);
  });

  it("a wrong code_verifier → invalid_grant", async () => {
    const { browser } = await newDriver();
    const { challenge } = pkcePair();
    const { code } = await authorizeCode(
      browser,
      codeRequest(webApp(), { code_challenge: challenge, code_challenge_method: "S256" }),
    );
    expectOAuthError(
      await exchangeCode(webApp(), code, { redirect_uri: CALLBACK, code_verifier: pkcePair().verifier }),
      400,
      "invalid_grant",
    );
  });

  it("no code_verifier for a code bound to a challenge → invalid_grant", async () => {
    const { browser } = await newDriver();
    const { code } = await authorizeCode(
      browser,
      codeRequest(webApp(), { code_challenge: pkcePair().challenge, code_challenge_method: "S256" }),
    );
    expectOAuthError(await exchangeCode(webApp(), code), 400, "invalid_grant");
  });

  it("downgrade: a code_verifier for a code issued without a challenge → invalid_grant", async () => {
    const { browser } = await newDriver();
    const { code } = await authorizeCode(browser, codeRequest(webApp()));
    expectOAuthError(
      await exchangeCode(webApp(), code, { redirect_uri: CALLBACK, code_verifier: pkcePair().verifier }),
      400,
      "invalid_grant",
    );
    // Without the verifier, as issued, it still works.
    expect((await exchangeCode(webApp(), code)).status).toBe(200);
  });

  it("a public app's code cannot be exchanged by client_id alone without the verifier", async () => {
    const { browser } = await newDriver();
    const { code } = await authorizeCode(
      browser,
      codeRequest(nativeApp(), {
        redirect_uri: "carlocator://oauth/callback",
        code_challenge: pkcePair().challenge,
        code_challenge_method: "S256",
      }),
    );
    expectOAuthError(
      await tokenRequest({
        grant_type: "authorization_code",
        code,
        redirect_uri: "carlocator://oauth/callback",
        client_id: nativeApp().clientId,
      }),
      400,
      "invalid_grant",
    );
  });
});

describe("authorization codes from the authorization page", () => {
  it("single use: a second exchange → invalid_grant, and the tokens of the first stop working", async () => {
    const { browser } = await newDriver();
    const { code } = await authorizeCode(browser, codeRequest(webApp()));
    const first = await exchangeCode(webApp(), code);
    expect(first.status).toBe(200);
    expect(await apiStatus(first.body.access_token)).toBe(200);
    expectOAuthError(await exchangeCode(webApp(), code), 400, "invalid_grant");
    expect(await apiStatus(first.body.access_token)).toBe(401);
    expectOAuthError(
      await tokenRequest({ grant_type: "refresh_token", refresh_token: first.body.refresh_token }, { basic: webApp() }),
      400,
      "invalid_grant",
    );
  });

  it("an expired code (10 minutes) → invalid_grant", async () => {
    const { browser } = await newDriver();
    const { code } = await authorizeCode(browser, codeRequest(webApp()));
    const [row] =
      await testSql()`select extract(epoch from expires_at - created_at)::int as ttl from oauth_codes where code_hash = encode(sha256(${code}::bytea), 'hex')`;
    expect((row as { ttl: number }).ttl).toBe(600);
    await expireCode(code);
    expectOAuthError(await exchangeCode(webApp(), code), 400, "invalid_grant");
  });

  it("bound to the client: another app's credentials → invalid_grant", async () => {
    const { browser } = await newDriver();
    const { code } = await authorizeCode(browser, codeRequest(webApp()));
    expectOAuthError(await exchangeCode(apps().main.sandbox, code), 400, "invalid_grant");
  });

  it("bound to the redirect URI: another registered URI at exchange → invalid_grant", async () => {
    const { browser } = await newDriver();
    const { code } = await authorizeCode(browser, codeRequest(webApp()));
    expectOAuthError(
      await exchangeCode(webApp(), code, { redirect_uri: "https://partner.example/cb?tenant=acme" }),
      400,
      "invalid_grant",
    );
  });

  it("bound to the redirect URI: none at exchange → invalid_request", async () => {
    const { browser } = await newDriver();
    const { code } = await authorizeCode(browser, codeRequest(webApp()));
    expectOAuthError(await exchangeCode(webApp(), code, {}), 400, "invalid_request");
  });

  it("bound to the environment: the app's production credentials → invalid_grant", async () => {
    const { browser } = await newDriver();
    const { code } = await authorizeCode(browser, codeRequest(webApp()));
    expectOAuthError(await exchangeCode(webApp("production"), code), 400, "invalid_grant");
  });

  it("stored only as its SHA-256", async () => {
    const { browser } = await newDriver();
    const { code } = await authorizeCode(browser, codeRequest(webApp()));
    const rows = await testSql()`select count(*)::int as n from oauth_codes t where position(${code} in t::text) > 0`;
    expect((rows[0] as { n: number }).n).toBe(0);
  });
});

describe("refresh tokens and the grants without them", () => {
  it("the code grant's refresh token rotates; reusing an old one revokes the whole family", async () => {
    const { browser } = await newDriver();
    const { code } = await authorizeCode(browser, codeRequest(webApp()));
    const first = await exchangeCode(webApp(), code);
    const second = await tokenRequest(
      { grant_type: "refresh_token", refresh_token: first.body.refresh_token },
      { basic: webApp() },
    );
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
    expect(await apiStatus(second.body.access_token)).toBe(200);

    expectOAuthError(
      await tokenRequest({ grant_type: "refresh_token", refresh_token: first.body.refresh_token }, { basic: webApp() }),
      400,
      "invalid_grant",
    );
    expect(await apiStatus(second.body.access_token)).toBe(401);
    expectOAuthError(
      await tokenRequest(
        { grant_type: "refresh_token", refresh_token: second.body.refresh_token },
        { basic: webApp() },
      ),
      400,
      "invalid_grant",
    );
  });

  it("the implicit grant never issues a refresh token (none in the redirect, none stored)", async () => {
    const { browser } = await newDriver();
    const location = await browser.authorizeAndAllow(
      authorizeUrl({ client_id: webApp().clientId, redirect_uri: CALLBACK, response_type: "token", state: newState() }),
    );
    const got = redirectParams(location);
    expect(got).not.toHaveProperty("refresh_token");
    const [row] = await testSql()`select refresh_hash, grant_type, extract(epoch from access_expires_at -
        created_at)::int as ttl from oauth_tokens where access_hash =
        encode(sha256(${got.access_token!}::bytea), 'hex')`;
    expect(row).toMatchObject({ refresh_hash: null, grant_type: "implicit" });
    expect(Math.abs((row as { ttl: number }).ttl - 86400)).toBeLessThanOrEqual(1);
  });

  it("client credentials never issue a refresh token", async () => {
    const res = await tokenRequest({ grant_type: "client_credentials" }, { basic: webApp() });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty("refresh_token");
  });

  it("a public app cannot use client credentials → 401 invalid_client", async () => {
    expectOAuthError(
      await tokenRequest({ grant_type: "client_credentials", client_id: nativeApp().clientId }),
      401,
      "invalid_client",
    );
  });
});

describe("token endpoint answers", () => {
  it("invalid_client → 401 with a WWW-Authenticate challenge, with HTTP Basic and with form credentials", async () => {
    const basic = await tokenRequest(
      { grant_type: "client_credentials" },
      { basic: { clientId: webApp().clientId, clientSecret: "wls_wrong" } },
    );
    expectOAuthError(basic, 401, "invalid_client");
    expect(basic.headers.get("www-authenticate")).toBe('Basic realm="wayline"');
    const form = await tokenRequest({
      grant_type: "client_credentials",
      client_id: webApp().clientId,
      client_secret: "wls_wrong",
    });
    expectOAuthError(form, 401, "invalid_client");
    expect(form.headers.get("www-authenticate")).toBe('Basic realm="wayline"');
  });

  it("success and error answers carry Cache-Control: no-store", async () => {
    const ok = await tokenRequest({ grant_type: "client_credentials" }, { basic: webApp() });
    expect(ok.headers.get("cache-control")).toBe("no-store");
    const bad = await tokenRequest({ grant_type: "authorization_code", code: "nope" }, { basic: webApp() });
    expect(bad.headers.get("cache-control")).toBe("no-store");
  });

  it("/OAuth/token (another spelling) is the same endpoint", async () => {
    const res = await tokenRequest(
      { grant_type: "client_credentials" },
      { basic: webApp(), url: tokenUrl().replace("/oauth/", "/OAuth/") },
    );
    expect(res.status, res.text).toBe(200);
  });
});

describe("the consent form", () => {
  async function consentStep() {
    const { browser } = await newDriver();
    const params = codeRequest(webApp());
    const step = await browser.authorize(authorizeUrl(params));
    if (step.kind !== "consent") throw new Error(`expected the consent page, got ${step.kind}`);
    return { browser, step, params };
  }

  it("cannot be framed (frame-ancestors 'none', X-Frame-Options DENY) and is not cached", async () => {
    const { step } = await consentStep();
    expect(step.page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(step.page.headers.get("x-frame-options")).toBe("DENY");
    expect(step.page.headers.get("cache-control")).toContain("no-store");
  });

  it("Allow is answered with 303 See Other", async () => {
    const { browser, step } = await consentStep();
    const answer = await browser.decide(step, "allow");
    expect(answer.status).toBe(303);
    expect(answer.headers.get("cache-control")).toContain("no-store");
  });

  it("without its CSRF token → 403, no redirect, no grant", async () => {
    const { browser, step } = await consentStep();
    const answer = await browser.decide(step, "allow", { csrf_token: "" });
    expect(answer.status).toBe(403);
    expect(answer.location).toBeNull();
    expect((await browser.authorize(authorizeUrl(codeRequest(webApp())))).kind).toBe("consent");
  });

  it("with the CSRF token of another driver's session → 403", async () => {
    const { browser, step } = await consentStep();
    const other = await consentStep();
    const answer = await browser.decide(step, "allow", { csrf_token: other.step.form.csrf_token! });
    expect(answer.status).toBe(403);
  });

  it("posted from another origin → 403, even with the right token", async () => {
    const { browser, step } = await consentStep();
    const answer = await browser.post(
      "/oauth/authorize/decision",
      { ...step.form, decision: "allow" },
      { Origin: "https://evil.example" },
    );
    expect(answer.status).toBe(403);
  });

  it("posted without a session → 303 back to the authorization endpoint, no code", async () => {
    const { step } = await consentStep();
    const stranger = new Browser();
    const answer = await stranger.decide(step, "allow");
    expect(answer.status).toBe(303);
    expect(answer.location!.startsWith("/sandbox/oauth/authorize?")).toBe(true);
  });

  it("with a redirect_uri swapped in the hidden fields → 400 error page, no redirect", async () => {
    const { browser, step } = await consentStep();
    const answer = await browser.decide(step, "allow", { redirect_uri: "https://evil.example/callback" });
    expect(answer.status).toBe(400);
    expect(answer.location).toBeNull();
  });

  it("without a decision → 400", async () => {
    const { browser, step } = await consentStep();
    const answer = await browser.decide(step, "maybe" as "allow");
    expect(answer.status).toBe(400);
  });

  it("a JSON post → 400", async () => {
    const { browser } = await consentStep();
    const answer = await browser.request("POST", "/oauth/authorize/decision", {
      headers: { "Content-Type": "application/json" },
    });
    expect(answer.status).toBe(400);
  });

  it("sign-in without next-auth's CSRF token creates no session", async () => {
    const { username, password } = await newDriver();
    const browser = new Browser();
    const res = await browser.post("/api/auth/callback/password", {
      environment: "sandbox",
      username,
      password,
      json: "true",
    });
    expect(browser.signedIn).toBe(false);
    expect(JSON.parse(res.text).url).toContain("csrf=true");
  });
});

describe("the API after an authorization", () => {
  it("a client token of the app lists the driver who authorized it", async () => {
    const { browser, username } = await newDriver();
    await authorizeCode(browser, codeRequest(webApp()));
    const list = await request("GET", `${apiBase("sandbox")}/account/?searchLimit=500&sortOrder=desc`, {
      token: await clientToken(webApp()),
    });
    expect(list.body.account.map((a: { username: string }) => a.username)).toContain(username);
  });
});
