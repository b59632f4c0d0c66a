import { ErrorType, OAuthRequest, isOAuthError, type OAuthException } from "@jmondi/oauth2-server";
import { db } from "@/db/client";
import { databaseUnavailable } from "@/db/unavailable";
import type { Environment } from "@/db/schema";
import { logger } from "@/server/platform/log";
import { sha256 } from "@/server/platform/security/secrets";
import { makeAuthorizationServer } from "./authorization-server";
import { ACCESS_TOKEN_TTL_SECONDS } from "./lifetimes";
import { findCodeByHash, findCredentialByClientId } from "./queries";
import { OAuthError, invalidClient, invalidRequest, type ClientProof } from "./oauth-error";
import type { GrantContext } from "./repositories";

const SUPPORTED_GRANTS = new Set(["client_credentials", "authorization_code", "refresh_token"]);

/** The token endpoint's answer (RFC 6749 §5.1). */
export type IssuedToken = {
  access_token: string;
  token_type: "bearer";
  expires_in: number;
  refresh_token?: string;
  scope?: string;
};

// A token request (docs/oauth.md), its form already read and its client credentials merged
// (server/http/with-oauth-endpoint.ts). The grants themselves run in @jmondi/oauth2-server; this
// is one transaction per grant and the translation of the library's errors into RFC 6749's.
// The client authenticated (`proof`) when its secret matched (isClientValid says so), or, for a
// public client, when the grant succeeded (its code and verifier, or its refresh token, were its own).
export async function grantToken(
  form: Record<string, string>,
  endpointEnvironment: Environment | null,
  proof: ClientProof,
): Promise<IssuedToken> {
  if (!form.grant_type) throw invalidRequest("grant_type is required.");
  if (!SUPPORTED_GRANTS.has(form.grant_type))
    throw new OAuthError(400, "unsupported_grant_type", `grant_type ${form.grant_type} is not supported here.`);
  if (!form.client_id)
    throw invalidClient("Client authentication is required (HTTP Basic or client_id and client_secret).");

  const redirectProblem = await acceptCreationCodeRedirect(form);
  if (redirectProblem) throw new OAuthError(400, "invalid_grant", redirectProblem);

  const ctx: GrantContext = {
    tx: db(),
    environment: endpointEnvironment,
    afterFailure: [],
    codeVerifierSent: Boolean(form.code_verifier),
    clientAuthenticated: false,
  };
  try {
    const issued = await runGrant(form, ctx);
    proof.clientAuthenticated = true;
    return issued;
  } finally {
    if (ctx.clientAuthenticated === true) proof.clientAuthenticated = true;
  }
}

async function runGrant(form: Record<string, string>, ctx: GrantContext): Promise<IssuedToken> {
  try {
    const result = await db().transaction(async (tx) => {
      ctx.tx = tx;
      const server = makeAuthorizationServer(ctx);
      return server.respondToAccessTokenRequest(new OAuthRequest({ body: form, headers: {}, query: {} }));
    });
    const issued = result.body as { access_token: string; refresh_token?: string };
    return {
      access_token: issued.access_token,
      token_type: "bearer",
      // The library rounds the time left down (86399); the token was issued just now.
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      ...(issued.refresh_token ? { refresh_token: issued.refresh_token } : {}),
      // A token for an account says what its grant holds; an app's own token has no scope.
      ...(ctx.grantedScope ? { scope: ctx.grantedScope } : {}),
    };
  } catch (error) {
    // The database out of reach: nothing more can be recorded; the edge answers 503.
    if (databaseUnavailable(error)) throw error;
    for (const action of ctx.afterFailure) await action(db());
    if (isOAuthError(error)) throw fromLibraryError(error as OAuthException, form.grant_type!);
    logger.error({ err: error }, "token endpoint failed");
    throw new OAuthError(500, "server_error", "An unexpected error occurred.");
  }
}

function fromLibraryError(error: OAuthException, grantType: string): OAuthError {
  const description = error.errorDescription ?? error.message;
  if (error.errorType === ErrorType.InvalidClient) return invalidClient(description);
  // The library reports a present-but-unacceptable code, refresh token or redirect_uri as
  // invalid_request; RFC 6749 §5.2 calls that invalid_grant. A missing parameter keeps
  // invalid_request (the library's "Check the `x` parameter").
  const presentButBad =
    error.errorType === ErrorType.InvalidRequest &&
    grantType !== "client_credentials" &&
    !description.startsWith("Check the `");
  const type = presentButBad ? ErrorType.InvalidGrant : error.errorType;
  return new OAuthError(error.status >= 500 ? 500 : error.status === 401 ? 401 : 400, type, description);
}

// Codes from account creation carry no redirect URI (docs/oauth.md#accounts-created-by-an-app: at exchange it may be omitted
// or any URI registered for the client). The library compares strictly, so a registered one is
// dropped here before the grant runs; an unregistered one is refused.
async function acceptCreationCodeRedirect(form: Record<string, string>): Promise<string | null> {
  if (form.grant_type !== "authorization_code" || !form.code || !form.redirect_uri) return null;
  const code = await findCodeByHash(db(), { codeHash: sha256(form.code) });
  if (!code || code.origin !== "account_creation") return null;
  const credential = await findCredentialByClientId(db(), { clientId: form.client_id ?? "" });
  if (!credential || credential.credentialId !== code.credentialId) return null;
  if (!credential.redirectUris.includes(form.redirect_uri)) return "redirect_uri is not registered for this client.";
  delete form.redirect_uri;
  return null;
}
