import { OAuthError } from "./errors.js";

// Tokens for the client (docs/sdk.md#tokens): the client-credentials grant for the app's own calls, and the
// authorization-code grant (with refresh) for a driver's. A TokenSource hands the client a current token and,
// when the service answers 401, a fresh one.

export type Environment = "sandbox" | "production";

export type Tokens = {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token?: string;
};

export type TokenSource = {
  /** A token believed current. */
  token(): Promise<string>;
  /** A new token, after the service refused the last one. */
  refresh?(): Promise<string>;
};

type App = { url: string; environment?: Environment; clientId: string; clientSecret: string; fetch?: typeof fetch };

const prefix = (environment: Environment = "sandbox") => (environment === "sandbox" ? "/sandbox" : "");

/** The token endpoint of an environment. */
export const tokenUrl = (url: string, environment?: Environment) =>
  `${url.replace(/\/$/, "")}${prefix(environment)}/oauth/token`;

async function tokenRequest(app: App, form: Record<string, string>): Promise<Tokens> {
  const response = await (app.fetch ?? fetch)(tokenUrl(app.url, app.environment), {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(app.clientId)}:${encodeURIComponent(app.clientSecret)}`).toString("base64")}`,
    },
    body: new URLSearchParams(form),
  });
  const body = (await response.json().catch(() => ({}))) as Partial<Tokens> & {
    error?: string;
    error_description?: string;
  };
  if (!response.ok || !body.access_token)
    throw new OAuthError(response.status, body.error ?? "invalid_response", body.error_description ?? "");
  return body as Tokens;
}

// A token is renewed a minute before it expires, so a call never leaves with one about to lapse.
const EARLY_MS = 60_000;

/** The app's own token (client-credentials grant), fetched on first use and renewed before it expires. */
export function clientCredentials(app: App): TokenSource & { tokens(): Promise<Tokens> } {
  let current: { tokens: Tokens; until: number } | undefined;
  const fetchNew = async () => {
    const tokens = await tokenRequest(app, { grant_type: "client_credentials" });
    current = { tokens, until: Date.now() + tokens.expires_in * 1000 - EARLY_MS };
    return tokens;
  };
  return {
    tokens: async () => (current && Date.now() < current.until ? current.tokens : fetchNew()),
    token: async () => (current && Date.now() < current.until ? current.tokens : await fetchNew()).access_token,
    refresh: async () => (await fetchNew()).access_token,
  };
}

/** The authorization page's URL, to send the driver to (authorization-code grant). */
export function authorizationUrl(options: {
  url: string;
  environment?: Environment;
  clientId: string;
  redirectUri: string;
  state?: string;
  scope?: string;
  codeChallenge?: string;
}): string {
  const query = new URLSearchParams({
    client_id: options.clientId,
    redirect_uri: options.redirectUri,
    response_type: "code",
    ...(options.state ? { state: options.state } : {}),
    ...(options.scope ? { scope: options.scope } : {}),
    ...(options.codeChallenge ? { code_challenge: options.codeChallenge, code_challenge_method: "S256" } : {}),
  });
  return `${options.url.replace(/\/$/, "")}${prefix(options.environment)}/oauth/authorize?${query}`;
}

/** Exchanges an authorization code (from the redirect, or from account creation) for a driver's tokens. */
export function exchangeCode(
  app: App & { code: string; redirectUri?: string; codeVerifier?: string },
): Promise<Tokens> {
  return tokenRequest(app, {
    grant_type: "authorization_code",
    code: app.code,
    ...(app.redirectUri ? { redirect_uri: app.redirectUri } : {}),
    ...(app.codeVerifier ? { code_verifier: app.codeVerifier } : {}),
  });
}

/**
 * A driver's tokens that renew themselves with the refresh token. Refresh tokens rotate on every use (the
 * old one stops working), so `onRotate` gets each new pair: store it, or the next start has none that works.
 */
export function refreshingTokens(
  app: App & { tokens: Tokens; onRotate?: (tokens: Tokens) => void | Promise<void> },
): TokenSource {
  let tokens = app.tokens;
  let until = Date.now() + tokens.expires_in * 1000 - EARLY_MS;
  let pending: Promise<string> | undefined;
  const refresh = () =>
    // One refresh at a time: two concurrent ones would present the same refresh token twice, which
    // the service treats as a replay and answers by revoking the family.
    (pending ??= (async () => {
      if (!tokens.refresh_token) throw new OAuthError(401, "invalid_grant", "These tokens have no refresh token.");
      const next = await tokenRequest(app, { grant_type: "refresh_token", refresh_token: tokens.refresh_token });
      tokens = next;
      until = Date.now() + next.expires_in * 1000 - EARLY_MS;
      await app.onRotate?.(next);
      return next.access_token;
    })().finally(() => (pending = undefined)));
  return {
    token: async () => (Date.now() < until ? tokens.access_token : refresh()),
    refresh,
  };
}
