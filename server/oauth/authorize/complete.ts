import { OAuthException } from "@jmondi/oauth2-server";
import { db } from "@/db/client";
import { makeAuthorizationServer } from "../authorization-server";
import { issueCode } from "../codes";
import { recordConsent } from "@/server/grants/grant-queries";
import { ACCESS_TOKEN_TTL_SECONDS } from "../lifetimes";
import type { GrantScope } from "@/common/oauth/grant-scope";
import type { GrantContext } from "../repositories";
import { clientRedirect, withoutFragment } from "./redirect";
import type { ValidAuthorization } from "./request";

// The end of an authorization request: where the driver's browser is sent next.

/**
 * The driver allows access (or allowed it before). In one transaction: the consent is recorded
 * (account_grants), then a code bound to the client, redirect URI and PKCE challenge is issued,
 * or, for response_type=token, the library's implicit grant issues an access token (never a
 * refresh token).
 */
export async function approveAuthorization(
  { params, asked, client, libraryRequest }: ValidAuthorization,
  accountId: number,
  /** What the driver chose on the consent form; null for a driver who allowed the app before. */
  granted: GrantScope | null,
): Promise<string> {
  const result = await db().transaction(async (tx) => {
    await recordConsent(tx, {
      accountId,
      appId: client.appId,
      granted: granted ?? asked,
      locationAsked: asked.location,
      keep: granted === null,
    });
    if (params.responseType === "code") {
      const code = await issueCode(tx, {
        environment: client.environment,
        credentialId: client.credentialId,
        accountId,
        origin: "authorization",
        redirectUri: params.redirectUri,
        codeChallenge: params.codeChallenge,
        codeChallengeMethod: params.codeChallenge ? "S256" : null,
        scopes: params.scope,
      });
      return { code, state: params.state };
    }
    const ctx: GrantContext = { tx, environment: client.environment, afterFailure: [] };
    libraryRequest.user = { id: accountId };
    libraryRequest.isAuthorizationApproved = true;
    const response = await makeAuthorizationServer(ctx).completeAuthorizationRequest(libraryRequest);
    const accessToken = tokenFromLibraryRedirect(
      String(response.headers.location ?? ""),
      withoutFragment(params.redirectUri),
    );
    // token_type and expires_in as the API documents them (the library says "Bearer" and
    // counts the seconds left, 86399).
    return {
      access_token: accessToken,
      token_type: "bearer",
      expires_in: String(ACCESS_TOKEN_TTL_SECONDS),
      scope: ctx.grantedScope ?? null,
      state: params.state,
    };
  });
  return clientRedirect(params.redirectUri, result, params.responseMode);
}

/** The driver says no (RFC 6749 §4.1.2.1). */
export function denyAuthorization({ params }: ValidAuthorization): string {
  return clientRedirect(
    params.redirectUri,
    { error: "access_denied", error_description: "The driver did not allow access.", state: params.state },
    params.responseMode,
  );
}

/** A request that cannot be answered without the driver (prompt=none). */
export function interactionRequired(
  { params }: ValidAuthorization,
  error: "login_required" | "consent_required",
): string {
  const description =
    error === "login_required" ? "The driver is not signed in." : "The driver has not allowed this app yet.";
  return clientRedirect(
    params.redirectUri,
    { error, error_description: description, state: params.state },
    params.responseMode,
  );
}

// The library's implicit grant answers with a redirect: the redirect URI it was given (without a
// fragment), one separator ("?" or "&"), then its parameters.
function tokenFromLibraryRedirect(location: string, redirectUri: string): string {
  const token = location.startsWith(redirectUri)
    ? new URLSearchParams(location.slice(redirectUri.length + 1)).get("access_token")
    : null;
  if (!token) throw OAuthException.internalServerError("The implicit grant issued no access token.");
  return token;
}
