import * as oauth from "oauth4webapi";
import { describe, expect, it } from "vitest";
import { authorizeUrl, baseUrl, Browser } from "@/test/helpers/browser";
import { apiBase } from "@/test/helpers/api";
import { newDriver, nativeApp, webApp } from "@/test/helpers/oauth-flow";

// Wayline's OAuth server driven by code we did not write: oauth4webapi (panva), a strict,
// certified client library. It discovers the server (RFC 8414), runs the code flow with PKCE,
// refreshes, revokes, and checks every answer against the RFCs as it goes. Loopback HTTP is
// allowed explicitly: the service under test listens on http://127.0.0.1.

const insecure = { [oauth.allowInsecureRequests]: true } as const;
const CALLBACK = "https://partner.example/callback";

/** The library's reading of the API's 401: a Bearer challenge with error="invalid_token". */
const INVALID_TOKEN = {
  status: 401,
  cause: [{ scheme: "bearer", parameters: { realm: "wayline", error: "invalid_token" } }],
};

const readAccounts = (token: string) =>
  oauth.protectedResourceRequest(
    token,
    "GET",
    new URL(`${apiBase("sandbox")}/account/`),
    undefined,
    undefined,
    insecure,
  );

async function discover(environment: "sandbox" | "production") {
  const issuer = new URL(environment === "sandbox" ? `${baseUrl()}/sandbox` : baseUrl());
  const as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure }),
  );
  return { as, issuer };
}

/** The driver's side, through a browser: back at the app's callback URL. */
async function browse(browser: Browser, url: URL, decision: "allow" | "deny" = "allow"): Promise<URL> {
  const step = await browser.authorize(url.toString());
  if (step.kind === "redirect") return new URL(step.location);
  const answer = await browser.decide(step, decision);
  return new URL(answer.location!);
}

async function authorizationUrl(as: oauth.AuthorizationServer, clientId: string, redirectUri: string) {
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: "code",
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
  }).toString();
  return { url, codeVerifier, state };
}

describe("oauth4webapi against Wayline", () => {
  it("discovers both issuers (RFC 8414, path insertion for the sandbox) with S256 as the only PKCE method", async () => {
    for (const environment of ["sandbox", "production"] as const) {
      const { as, issuer } = await discover(environment);
      expect(as.issuer).toBe(issuer.href.replace(/\/$/, ""));
      expect(as.code_challenge_methods_supported).toEqual(["S256"]);
      expect(as.authorization_endpoint).toBe(`${as.issuer}/oauth/authorize`);
      expect(as.token_endpoint).toBe(`${as.issuer}/oauth/token`);
      expect(as.revocation_endpoint).toBe(`${as.issuer}/oauth/revoke`);
    }
  });

  it("a confidential client: code + PKCE, the API, refresh rotation, revocation", async () => {
    const { as } = await discover("sandbox");
    const creds = webApp();
    const client: oauth.Client = { client_id: creds.clientId };
    const auth = oauth.ClientSecretBasic(creds.clientSecret);
    const { browser, username } = await newDriver();

    const { url, codeVerifier, state } = await authorizationUrl(as, creds.clientId, CALLBACK);
    const callback = oauth.validateAuthResponse(as, client, await browse(browser, url), state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, auth, callback, CALLBACK, codeVerifier, insecure),
    );
    expect(tokens.token_type).toBe("bearer");
    expect(tokens.expires_in).toBe(86400);
    expect(tokens.refresh_token).toEqual(expect.any(String));

    const me = await readAccounts(tokens.access_token);
    expect(me.status).toBe(200);
    expect(((await me.json()) as { account: { username: string }[] }).account[0]!.username).toBe(username);

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token!, insecure),
    );
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);

    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, auth, refreshed.access_token, insecure),
    );
    await expect(readAccounts(refreshed.access_token)).rejects.toMatchObject(INVALID_TOKEN);
  });

  it("a public client (no secret) with PKCE through a custom-scheme redirect", async () => {
    const { as } = await discover("sandbox");
    const client: oauth.Client = { client_id: nativeApp().clientId };
    const { browser } = await newDriver();
    const redirectUri = "carlocator://oauth/callback";
    const { url, codeVerifier, state } = await authorizationUrl(as, client.client_id, redirectUri);
    const callback = oauth.validateAuthResponse(as, client, await browse(browser, url), state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(
        as,
        client,
        oauth.None(),
        callback,
        redirectUri,
        codeVerifier,
        insecure,
      ),
    );
    expect(tokens.access_token).toEqual(expect.any(String));
  });

  it("a replayed code: the library sees invalid_grant, and the first tokens are revoked", async () => {
    const { as } = await discover("sandbox");
    const creds = webApp();
    const client: oauth.Client = { client_id: creds.clientId };
    const auth = oauth.ClientSecretPost(creds.clientSecret);
    const { browser } = await newDriver();
    const { url, codeVerifier, state } = await authorizationUrl(as, creds.clientId, CALLBACK);
    const callback = oauth.validateAuthResponse(as, client, await browse(browser, url), state);
    const first = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, auth, callback, CALLBACK, codeVerifier, insecure),
    );
    const replay = oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, auth, callback, CALLBACK, codeVerifier, insecure),
    );
    await expect(replay).rejects.toMatchObject({ error: "invalid_grant", status: 400 });
    await expect(readAccounts(first.access_token)).rejects.toMatchObject(INVALID_TOKEN);
  });

  it("a wrong code_verifier: the library sees invalid_grant", async () => {
    const { as } = await discover("sandbox");
    const creds = webApp();
    const client: oauth.Client = { client_id: creds.clientId };
    const { browser } = await newDriver();
    const { url, state } = await authorizationUrl(as, creds.clientId, CALLBACK);
    const callback = oauth.validateAuthResponse(as, client, await browse(browser, url), state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic(creds.clientSecret),
      callback,
      CALLBACK,
      oauth.generateRandomCodeVerifier(),
      insecure,
    );
    await expect(oauth.processAuthorizationCodeResponse(as, client, response)).rejects.toMatchObject({
      error: "invalid_grant",
    });
  });

  it("a denial reaches the library as access_denied with the state it sent", async () => {
    const { as } = await discover("sandbox");
    const client: oauth.Client = { client_id: webApp().clientId };
    const { browser } = await newDriver();
    const { url, state } = await authorizationUrl(as, client.client_id, CALLBACK);
    const back = await browse(browser, url, "deny");
    expect(() => oauth.validateAuthResponse(as, client, back, state)).toThrow(
      expect.objectContaining({ error: "access_denied" }),
    );
  });

  it("client credentials with client_secret_post: a bearer token and no refresh token", async () => {
    const { as } = await discover("production");
    const creds = webApp("production");
    const client: oauth.Client = { client_id: creds.clientId };
    const tokens = await oauth.processClientCredentialsResponse(
      as,
      client,
      await oauth.clientCredentialsGrantRequest(as, client, oauth.ClientSecretPost(creds.clientSecret), {}, insecure),
    );
    expect(tokens.token_type).toBe("bearer");
    expect(tokens.refresh_token).toBeUndefined();
  });

  it("the authorization URL the library builds also works at /OAuth/authorize", async () => {
    const { as } = await discover("sandbox");
    const { url } = await authorizationUrl(as, webApp().clientId, CALLBACK);
    const step = await new Browser().authorize(authorizeUrl(Object.fromEntries(url.searchParams), "/OAuth/authorize"));
    expect(step.kind).toBe("sign-in");
  });
});
