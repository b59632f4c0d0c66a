import { describe, expect, it } from "vitest";
import {
  api,
  clientToken,
  createDriver,
  newAccountBody,
  request,
  sha256,
  testSql,
  tokenRequest,
  tokenUrl,
  type Credentials,
} from "@/test/helpers/api";
import { apps, ENVS, expectApiError, expectOAuthError, expireCode, rowsContaining } from "@/test/helpers/fixtures";

// The token endpoint (docs/oauth.md#token-endpoint) over real HTTP: client authentication, the three grants, and
// what happens to codes and refresh tokens presented twice.

const formOf = (creds: Credentials) => ({ client_id: creds.clientId, client_secret: creds.clientSecret });

/** A new account's authorization code, issued to `creds`. */
async function creationCode(creds: Credentials): Promise<string> {
  const created = await api("sandbox").post("/account/", newAccountBody(), await clientToken(creds));
  expect(created.status, created.text).toBe(200);
  return created.body.account.accessToken.code as string;
}

const works = async (token: string, env: "sandbox" | "production" = "sandbox") =>
  (await api(env).get("/account/", token)).status;

describe("POST /oauth/token client_credentials", () => {
  it.each(ENVS)(
    "with HTTP Basic → 200 bearer token, expires_in 86400, no refresh_token, no-store (%s)",
    async (env) => {
      const res = await tokenRequest({ grant_type: "client_credentials" }, { basic: apps().main[env] });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(res.body).toEqual({
        access_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        token_type: "bearer",
        expires_in: 86400,
      });
      expect(await works(res.body.access_token, env)).toBe(200);
    },
  );

  it("with client_id and client_secret form fields → 200", async () => {
    const res = await tokenRequest({ grant_type: "client_credentials", ...formOf(apps().main.sandbox) });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ token_type: "bearer", expires_in: 86400 });
    expect(res.body).not.toHaveProperty("refresh_token");
    expect(await works(res.body.access_token)).toBe(200);
  });

  it("with HTTP Basic and agreeing form fields → 200", async () => {
    const creds = apps().main.sandbox;
    const res = await tokenRequest({ grant_type: "client_credentials", ...formOf(creds) }, { basic: creds });
    expect(res.status, res.text).toBe(200);
    expect(await works(res.body.access_token)).toBe(200);
  });

  it("with HTTP Basic and a disagreeing form client_id → 401 invalid_client", async () => {
    const res = await tokenRequest(
      { grant_type: "client_credentials", client_id: apps().other.sandbox.clientId },
      { basic: apps().main.sandbox },
    );
    expectOAuthError(res, 401, "invalid_client");
    expect(res.headers.get("www-authenticate")).toMatch(/^Basic /);
  });

  it("with HTTP Basic and a disagreeing form client_secret → 401 invalid_client", async () => {
    const creds = apps().main.sandbox;
    const res = await tokenRequest(
      { grant_type: "client_credentials", ...formOf(creds), client_secret: `${creds.clientSecret}x` },
      { basic: creds },
    );
    expectOAuthError(res, 401, "invalid_client");
  });

  it("with a wrong secret → 401 invalid_client (Basic and form)", async () => {
    const creds = apps().main.sandbox;
    expectOAuthError(
      await tokenRequest({ grant_type: "client_credentials" }, { basic: { ...creds, clientSecret: "wls_wrong" } }),
      401,
      "invalid_client",
    );
    expectOAuthError(
      await tokenRequest({ grant_type: "client_credentials", client_id: creds.clientId, client_secret: "wls_wrong" }),
      401,
      "invalid_client",
    );
  });

  it("with another app's secret → 401 invalid_client", async () => {
    const res = await tokenRequest(
      { grant_type: "client_credentials" },
      { basic: { clientId: apps().main.sandbox.clientId, clientSecret: apps().other.sandbox.clientSecret } },
    );
    expectOAuthError(res, 401, "invalid_client");
  });

  it("with an unknown client → 401 invalid_client", async () => {
    const res = await tokenRequest(
      { grant_type: "client_credentials" },
      { basic: { clientId: "wl_sbx_nobody", clientSecret: "wls_nothing" } },
    );
    expectOAuthError(res, 401, "invalid_client");
  });

  it("with a client_id and no secret → 401 invalid_client", async () => {
    const res = await tokenRequest({ grant_type: "client_credentials", client_id: apps().main.sandbox.clientId });
    expectOAuthError(res, 401, "invalid_client");
  });

  it("with no client authentication at all → 401 invalid_client", async () => {
    expectOAuthError(await tokenRequest({ grant_type: "client_credentials" }), 401, "invalid_client");
  });

  it("/sandbox/oauth/token with a production client id → 401 invalid_client", async () => {
    const res = await tokenRequest(
      { grant_type: "client_credentials" },
      { basic: apps().main.production, url: tokenUrl("sandbox") },
    );
    expectOAuthError(res, 401, "invalid_client");
  });

  it("/sandbox/oauth/token with a sandbox client → a sandbox token", async () => {
    const res = await tokenRequest(
      { grant_type: "client_credentials" },
      { basic: apps().main.sandbox, url: tokenUrl("sandbox") },
    );
    expect(res.status, res.text).toBe(200);
    expect(await works(res.body.access_token, "sandbox")).toBe(200);
    expect(await works(res.body.access_token, "production")).toBe(401);
  });

  it("/oauth/token accepts both environments' clients; the client id decides the token's environment", async () => {
    const sandbox = await tokenRequest(
      { grant_type: "client_credentials" },
      { basic: apps().main.sandbox, url: tokenUrl("any") },
    );
    const production = await tokenRequest(
      { grant_type: "client_credentials" },
      { basic: apps().main.production, url: tokenUrl("any") },
    );
    expect([sandbox.status, production.status]).toEqual([200, 200]);
    expect(await works(sandbox.body.access_token, "sandbox")).toBe(200);
    expect(await works(sandbox.body.access_token, "production")).toBe(401);
    expect(await works(production.body.access_token, "production")).toBe(200);
    expect(await works(production.body.access_token, "sandbox")).toBe(401);
  });
});

describe("POST /oauth/token request checks", () => {
  it("without grant_type → 400 invalid_request", async () => {
    expectOAuthError(await tokenRequest({}, { basic: apps().main.sandbox }), 400, "invalid_request");
  });

  it("with grant_type password → 400 unsupported_grant_type", async () => {
    const res = await tokenRequest(
      { grant_type: "password", username: "someone", password: "secret-123" },
      { basic: apps().main.sandbox },
    );
    expectOAuthError(res, 400, "unsupported_grant_type");
  });

  it("with an invented grant_type → 400 unsupported_grant_type", async () => {
    expectOAuthError(
      await tokenRequest({ grant_type: "magic" }, { basic: apps().main.sandbox }),
      400,
      "unsupported_grant_type",
    );
  });

  it("with a JSON body instead of a form → 400 invalid_request", async () => {
    const creds = apps().main.sandbox;
    const res = await request("POST", tokenUrl(), { json: { grant_type: "client_credentials", ...formOf(creds) } });
    expectOAuthError(res, 400, "invalid_request");
  });

  it("with no body and no content type → 400 invalid_request", async () => {
    expectOAuthError(await request("POST", tokenUrl()), 400, "invalid_request");
  });

  it("authorization_code without a code → 400 invalid_request", async () => {
    expectOAuthError(
      await tokenRequest({ grant_type: "authorization_code" }, { basic: apps().main.sandbox }),
      400,
      "invalid_request",
    );
  });

  it("refresh_token without a refresh_token → 400 invalid_request", async () => {
    expectOAuthError(
      await tokenRequest({ grant_type: "refresh_token" }, { basic: apps().main.sandbox }),
      400,
      "invalid_request",
    );
  });
});

describe("POST /oauth/token authorization_code with the account-creation code", () => {
  it.each(ENVS)("without redirect_uri → 200 with access and refresh tokens for the new account (%s)", async (env) => {
    const creds = apps().main[env];
    const clientTok = await clientToken(creds);
    const created = await api(env).post("/account/", newAccountBody(), clientTok);
    const res = await tokenRequest(
      { grant_type: "authorization_code", code: created.body.account.accessToken.code },
      { basic: creds },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      token_type: "bearer",
      expires_in: 86400,
      refresh_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    const mine = await api(env).get("/account/", res.body.access_token);
    expect(mine.body.account.map((a: { id: number }) => a.id)).toEqual([created.body.account.id]);
  });

  it("with client credentials as form fields → 200", async () => {
    const creds = apps().main.sandbox;
    const res = await tokenRequest({
      grant_type: "authorization_code",
      code: await creationCode(creds),
      ...formOf(creds),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.refresh_token).toEqual(expect.any(String));
  });

  it("with a registered redirect_uri → 200", async () => {
    const creds = apps().main.sandbox;
    const res = await tokenRequest(
      {
        grant_type: "authorization_code",
        code: await creationCode(creds),
        redirect_uri: "https://partner.example/callback",
      },
      { basic: creds },
    );
    expect(res.status, res.text).toBe(200);
    expect(await works(res.body.access_token)).toBe(200);
  });

  it("with an unregistered redirect_uri → 400 invalid_grant", async () => {
    const creds = apps().main.sandbox;
    const res = await tokenRequest(
      {
        grant_type: "authorization_code",
        code: await creationCode(creds),
        redirect_uri: "https://evil.example/callback",
      },
      { basic: creds },
    );
    expectOAuthError(res, 400, "invalid_grant");
  });

  it("with an unknown code → 400 invalid_grant", async () => {
    expectOAuthError(
      await tokenRequest({ grant_type: "authorization_code", code: "not-a-code" }, { basic: apps().main.sandbox }),
      400,
      "invalid_grant",
    );
  });

  it("a reused code → 400 invalid_grant, and the tokens of its first use stop working", async () => {
    const creds = apps().main.sandbox;
    const code = await creationCode(creds);
    const first = await tokenRequest({ grant_type: "authorization_code", code }, { basic: creds });
    expect(first.status, first.text).toBe(200);
    expect(await works(first.body.access_token)).toBe(200);

    expectOAuthError(
      await tokenRequest({ grant_type: "authorization_code", code }, { basic: creds }),
      400,
      "invalid_grant",
    );

    const after = await api("sandbox").get("/account/", first.body.access_token);
    expectApiError(after, 401, "UNAUTHORIZED");
    expect(after.headers.get("www-authenticate")).toBe('Bearer realm="wayline", error="invalid_token"');
    expectOAuthError(
      await tokenRequest({ grant_type: "refresh_token", refresh_token: first.body.refresh_token }, { basic: creds }),
      400,
      "invalid_grant",
    );
  });

  it("a reused code also revokes the tokens rotated from its first use", async () => {
    const creds = apps().main.sandbox;
    const code = await creationCode(creds);
    const first = await tokenRequest({ grant_type: "authorization_code", code }, { basic: creds });
    const rotated = await tokenRequest(
      { grant_type: "refresh_token", refresh_token: first.body.refresh_token },
      { basic: creds },
    );
    expect(rotated.status, rotated.text).toBe(200);
    expect(await works(rotated.body.access_token)).toBe(200);

    expectOAuthError(
      await tokenRequest({ grant_type: "authorization_code", code }, { basic: creds }),
      400,
      "invalid_grant",
    );
    expect(await works(rotated.body.access_token)).toBe(401);
  });

  it("a code issued to another client → 400 invalid_grant, and its owner can still use it", async () => {
    const code = await creationCode(apps().main.sandbox);
    expectOAuthError(
      await tokenRequest({ grant_type: "authorization_code", code }, { basic: apps().other.sandbox }),
      400,
      "invalid_grant",
    );
    expectOAuthError(
      await tokenRequest(
        { grant_type: "authorization_code", code, redirect_uri: "https://partner.example/callback" },
        { basic: apps().other.sandbox },
      ),
      400,
      "invalid_grant",
    );
    const owner = await tokenRequest({ grant_type: "authorization_code", code }, { basic: apps().main.sandbox });
    expect(owner.status, owner.text).toBe(200);
  });

  it("a sandbox code at /oauth/token with the app's production credentials → 400 invalid_grant", async () => {
    const code = await creationCode(apps().main.sandbox);
    expectOAuthError(
      await tokenRequest({ grant_type: "authorization_code", code }, { basic: apps().main.production }),
      400,
      "invalid_grant",
    );
  });

  it("an expired code → 400 invalid_grant", async () => {
    const creds = apps().main.sandbox;
    const code = await creationCode(creds);
    await expireCode(code);
    expectOAuthError(
      await tokenRequest({ grant_type: "authorization_code", code }, { basic: creds }),
      400,
      "invalid_grant",
    );
  });
});

describe("POST /oauth/token refresh_token", () => {
  it("rotates: a new refresh token each time, and the previous access token stops working", async () => {
    const creds = apps().main.sandbox;
    const driver = await createDriver("sandbox", creds);
    const seen = new Set([driver.refreshToken]);
    let access = driver.accessToken;
    let refresh = driver.refreshToken;
    for (let i = 0; i < 3; i++) {
      const res = await tokenRequest({ grant_type: "refresh_token", refresh_token: refresh }, { basic: creds });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.body).toMatchObject({ token_type: "bearer", expires_in: 86400 });
      expect(seen.has(res.body.refresh_token)).toBe(false);
      seen.add(res.body.refresh_token);
      expect(await works(access)).toBe(401);
      expect(await works(res.body.access_token)).toBe(200);
      access = res.body.access_token;
      refresh = res.body.refresh_token;
    }
    const mine = await api("sandbox").get("/account/", access);
    expect(mine.body.account.map((a: { id: number }) => a.id)).toEqual([driver.account.id]);
  });

  it("a reused refresh token → 400 invalid_grant and revokes the whole family", async () => {
    const creds = apps().main.sandbox;
    const driver = await createDriver("sandbox", creds);
    const second = await tokenRequest(
      { grant_type: "refresh_token", refresh_token: driver.refreshToken },
      { basic: creds },
    );
    const third = await tokenRequest(
      { grant_type: "refresh_token", refresh_token: second.body.refresh_token },
      { basic: creds },
    );
    expect(third.status, third.text).toBe(200);
    expect(await works(third.body.access_token)).toBe(200);

    expectOAuthError(
      await tokenRequest({ grant_type: "refresh_token", refresh_token: driver.refreshToken }, { basic: creds }),
      400,
      "invalid_grant",
    );

    expect(await works(third.body.access_token)).toBe(401);
    expectOAuthError(
      await tokenRequest({ grant_type: "refresh_token", refresh_token: third.body.refresh_token }, { basic: creds }),
      400,
      "invalid_grant",
    );
  });

  it("a refresh token of another client → 400 invalid_grant, and it stays usable by its owner", async () => {
    const driver = await createDriver("sandbox", apps().main.sandbox);
    expectOAuthError(
      await tokenRequest(
        { grant_type: "refresh_token", refresh_token: driver.refreshToken },
        { basic: apps().other.sandbox },
      ),
      400,
      "invalid_grant",
    );
    expect(await works(driver.accessToken)).toBe(200);
    const owner = await tokenRequest(
      { grant_type: "refresh_token", refresh_token: driver.refreshToken },
      { basic: apps().main.sandbox },
    );
    expect(owner.status, owner.text).toBe(200);
  });

  it("an unknown refresh token → 400 invalid_grant", async () => {
    expectOAuthError(
      await tokenRequest(
        { grant_type: "refresh_token", refresh_token: "no-such-token" },
        { basic: apps().main.sandbox },
      ),
      400,
      "invalid_grant",
    );
  });

  it("a client-credentials access token is not a refresh token → 400 invalid_grant", async () => {
    const token = await clientToken(apps().main.sandbox);
    expectOAuthError(
      await tokenRequest({ grant_type: "refresh_token", refresh_token: token }, { basic: apps().main.sandbox }),
      400,
      "invalid_grant",
    );
  });
});

describe("secrets at rest", () => {
  it("access tokens, refresh tokens, codes and client secrets are stored only as their SHA-256", async () => {
    const creds = apps().main.sandbox;
    const clientTok = await clientToken(creds);
    const created = await api("sandbox").post("/account/", newAccountBody(), clientTok);
    const code = created.body.account.accessToken.code as string;
    const exchanged = await tokenRequest({ grant_type: "authorization_code", code }, { basic: creds });
    expect(exchanged.status, exchanged.text).toBe(200);
    const { access_token: access, refresh_token: refresh } = exchanged.body as {
      access_token: string;
      refresh_token: string;
    };

    for (const table of ["oauth_tokens", "oauth_codes", "app_credentials"] as const) {
      for (const plain of [clientTok, access, refresh, code, creds.clientSecret, apps().main.production.clientSecret]) {
        expect(await rowsContaining(table, plain), `${table} holds a plaintext value`).toBe(0);
      }
    }

    const sql = testSql();
    expect(await sql`select id from oauth_tokens where access_hash = ${sha256(clientTok)}`).toHaveLength(1);
    expect(
      await sql`select id from oauth_tokens where access_hash = ${sha256(access)} and refresh_hash = ${sha256(refresh)}`,
    ).toHaveLength(1);
    expect(await sql`select id from oauth_codes where code_hash = ${sha256(code)}`).toHaveLength(1);
    expect(
      await sql`select id from app_credentials where client_id = ${creds.clientId} and secret_hash = ${sha256(creds.clientSecret)}`,
    ).toHaveLength(1);
  });
});
