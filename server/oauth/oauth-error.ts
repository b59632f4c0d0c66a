// The one error of the token and revocation endpoints: RFC 6749 §5.2's `{ error, error_description }`
// with its status. The domain throws it; the edge (server/http/with-oauth-endpoint.ts) answers it,
// with no-store and, for invalid_client, the Basic challenge. Like ApiError for the API.
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
    this.name = "OAuthError";
  }
}

/** RFC 6749 §5.2's 401 for a client that did not authenticate. */
export const invalidClient = (description: string) => new OAuthError(401, "invalid_client", description);

/** A request the endpoint cannot read or that lacks what it needs. */
export const invalidRequest = (description: string) => new OAuthError(400, "invalid_request", description);

/**
 * What the request has proved so far: set once its client authenticated (its secret matched, or a
 * public client's code, refresh token or revoked token was its own). It decides whose rate-limit
 * budget the request spends (docs/oauth.md#rate-limits), whatever the answer.
 */
export type ClientProof = { clientAuthenticated: boolean };
