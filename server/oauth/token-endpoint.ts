import { ErrorType, OAuthRequest, isOAuthError, type OAuthException } from "@jmondi/oauth2-server";
import { db } from "@/db/client";
import { databaseUnavailable } from "@/db/unavailable";
import type { Environment } from "@/db/schema";
import { logger } from "@/server/platform/log";
import { sha256 } from "@/server/platform/security/secrets";
import { makeAuthorizationServer } from "./authorization-server";
import { ACCESS_TOKEN_TTL_SECONDS } from "./lifetimes";
import { mergeClientCredentials, nulFormField } from "./client-auth";
import { findCodeByHash, findCredentialByClientId } from "./queries";
import { withOAuthRateLimits, type OAuthAnswer } from "./rate-limit";
import type { GrantContext } from "./repositories";

const MAX_FORM_BYTES = 16 * 1024;
const SUPPORTED_GRANTS = new Set(["client_credentials", "authorization_code", "refresh_token"]);

type OAuthErrorBody = { error: string; error_description: string };

function oauthError(status: number, error: string, description: string, headers: Record<string, string> = {}): Response {
  const body: OAuthErrorBody = { error, error_description: description };
  return Response.json(body, { status, headers: { "Cache-Control": "no-store", Pragma: "no-cache", ...headers } });
}

// POST /oauth/token and /sandbox/oauth/token (docs/oauth.md). The grants themselves run in
// @jmondi/oauth2-server; this function is the HTTP edge around it: form parsing, the
// Basic-vs-form agreement rule, one transaction per grant, RFC 6749 error bodies.
export async function handleTokenRequest(request: Request, endpointEnvironment: Environment | null): Promise<Response> {
  const mime = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (mime !== "application/x-www-form-urlencoded") {
    return oauthError(400, "invalid_request", "The token request must be form-encoded (application/x-www-form-urlencoded).");
  }
  const raw = await request.text();
  if (raw.length > MAX_FORM_BYTES) return oauthError(400, "invalid_request", "The token request is too large.");
  const body: Record<string, string> = Object.fromEntries(new URLSearchParams(raw));

  const merged = mergeClientCredentials(request.headers.get("authorization"), body);
  if (merged === "disagree") return invalidClient("The client credentials in the Authorization header and the form do not agree.");
  const nul = nulFormField(body);
  if (nul?.clientCredentials) return invalidClient(`${nul.field} must not contain the NUL character (U+0000).`);
  if (nul) return oauthError(400, "invalid_request", `${nul.field} must not contain the NUL character (U+0000).`);
  return withOAuthRateLimits(request, body.client_id, () => answerTokenRequest(body, endpointEnvironment));
}

const unauthenticated = (response: Response): OAuthAnswer => ({ response, clientAuthenticated: false });

// Whether the client authenticated decides whose rate-limit budget the request spends
// (rate-limit.ts): its secret matched (isClientValid says so), or, for a public client, the grant
// succeeded (its code and verifier, or its refresh token, were its own).
async function answerTokenRequest(body: Record<string, string>, endpointEnvironment: Environment | null): Promise<OAuthAnswer> {
  if (!body.grant_type) return unauthenticated(oauthError(400, "invalid_request", "grant_type is required."));
  if (!SUPPORTED_GRANTS.has(body.grant_type)) {
    return unauthenticated(oauthError(400, "unsupported_grant_type", `grant_type ${body.grant_type} is not supported here.`));
  }
  if (!body.client_id) return unauthenticated(invalidClient("Client authentication is required (HTTP Basic or client_id and client_secret)."));

  const redirectProblem = await acceptCreationCodeRedirect(body);
  if (redirectProblem) return unauthenticated(oauthError(400, "invalid_grant", redirectProblem));

  const ctx: GrantContext = { tx: db(), environment: endpointEnvironment, afterFailure: [], codeVerifierSent: Boolean(body.code_verifier), clientAuthenticated: false };
  const response = await runGrant(body, ctx);
  return { response, clientAuthenticated: response.status === 200 || ctx.clientAuthenticated === true };
}

async function runGrant(body: Record<string, string>, ctx: GrantContext): Promise<Response> {
  try {
    const result = await db().transaction(async (tx) => {
      ctx.tx = tx;
      const server = makeAuthorizationServer(ctx);
      return server.respondToAccessTokenRequest(new OAuthRequest({ body, headers: {}, query: {} }));
    });
    const issued = result.body as { access_token: string; refresh_token?: string; scope?: string };
    return Response.json(
      {
        access_token: issued.access_token,
        token_type: "bearer",
        // The library rounds the time left down (86399); the token was issued just now.
        expires_in: ACCESS_TOKEN_TTL_SECONDS,
        ...(issued.refresh_token ? { refresh_token: issued.refresh_token } : {}),
        ...(issued.scope ? { scope: issued.scope } : {}),
      },
      { headers: { "Cache-Control": "no-store", Pragma: "no-cache" } },
    );
  } catch (error) {
    // The database out of reach: nothing more can be recorded; withOAuthRateLimits answers 503.
    if (databaseUnavailable(error)) throw error;
    for (const action of ctx.afterFailure) await action(db());
    if (isOAuthError(error)) return fromLibraryError(error as OAuthException, body.grant_type!);
    logger.error({ err: error }, "token endpoint failed");
    return oauthError(500, "server_error", "An unexpected error occurred.");
  }
}

// RFC 6749 §5.2 requires the challenge when the client tried HTTP Basic; it is sent for form
// credentials too, so every 401 says how to authenticate.
function invalidClient(description: string): Response {
  return oauthError(401, "invalid_client", description, { "WWW-Authenticate": 'Basic realm="wayline"' });
}

function fromLibraryError(error: OAuthException, grantType: string): Response {
  const description = error.errorDescription ?? error.message;
  if (error.errorType === ErrorType.InvalidClient) return invalidClient(description);
  // The library reports a present-but-unacceptable code, refresh token or redirect_uri as
  // invalid_request; RFC 6749 §5.2 calls that invalid_grant. A missing parameter keeps
  // invalid_request (the library's "Check the `x` parameter").
  const presentButBad = error.errorType === ErrorType.InvalidRequest && grantType !== "client_credentials" && !description.startsWith("Check the `");
  const type = presentButBad ? ErrorType.InvalidGrant : error.errorType;
  return oauthError(error.status >= 500 ? 500 : error.status === 401 ? 401 : 400, type, description);
}

// Codes from account creation carry no redirect URI (docs/oauth.md#accounts-created-by-an-app: at exchange it may be omitted
// or any URI registered for the client). The library compares strictly, so a registered one is
// dropped here before the grant runs; an unregistered one is refused.
async function acceptCreationCodeRedirect(body: Record<string, string>): Promise<string | null> {
  if (body.grant_type !== "authorization_code" || !body.code || !body.redirect_uri) return null;
  const code = await findCodeByHash(db(), { codeHash: sha256(body.code) });
  if (!code || code.origin !== "account_creation") return null;
  const credential = await findCredentialByClientId(db(), { clientId: body.client_id ?? "" });
  if (!credential || credential.credentialId !== code.credentialId) return null;
  if (!credential.redirectUris.includes(body.redirect_uri)) return "redirect_uri is not registered for this client.";
  delete body.redirect_uri;
  return null;
}

