import { db } from "@/db/client";
import type { Environment } from "@/db/schema";
import { sha256 } from "@/server/platform/security/secrets";
import { authenticateClient, mergeClientCredentials, nulFormField } from "./client-auth";
import { findTokenByAccessHash, findTokenByRefreshHash, revokeFamily } from "./queries";
import { withOAuthRateLimits, type OAuthAnswer } from "./rate-limit";

const MAX_FORM_BYTES = 16 * 1024;
const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

const oauthError = (status: number, error: string, description: string, headers: Record<string, string> = {}) =>
  Response.json({ error, error_description: description }, { status, headers: { ...NO_STORE, ...headers } });

// POST /oauth/revoke and /sandbox/oauth/revoke (RFC 7009). The client authenticates as at the
// token endpoint; `token` may be an access or a refresh token (token_type_hint only decides which
// is looked up first). Revoking either ends the token's whole family: the access token, its
// refresh token and every rotation of them. The driver's consent stays: the app can ask again
// without the driver being asked (revoking the consent is the driver's revoke page).
// Unknown tokens and tokens of other clients are answered 200 like any other (RFC 7009 §2.2), so the
// endpoint tells nobody which tokens exist. Not through the library: its revocation decodes
// JWTs, and Wayline's tokens are opaque.
export async function handleRevocationRequest(request: Request, endpointEnvironment: Environment | null): Promise<Response> {
  const mime = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (mime !== "application/x-www-form-urlencoded") return oauthError(400, "invalid_request", "The revocation request must be form-encoded (application/x-www-form-urlencoded).");
  const raw = await request.text();
  if (raw.length > MAX_FORM_BYTES) return oauthError(400, "invalid_request", "The revocation request is too large.");
  const body: Record<string, string> = Object.fromEntries(new URLSearchParams(raw));

  const merged = mergeClientCredentials(request.headers.get("authorization"), body);
  const challenge = { "WWW-Authenticate": 'Basic realm="wayline"' };
  if (merged === "disagree") return oauthError(401, "invalid_client", "The client credentials in the Authorization header and the form do not agree.", challenge);
  const nul = nulFormField(body);
  if (nul?.clientCredentials) return oauthError(401, "invalid_client", `${nul.field} must not contain the NUL character (U+0000).`, challenge);
  if (nul) return oauthError(400, "invalid_request", `${nul.field} must not contain the NUL character (U+0000).`);
  return withOAuthRateLimits(request, body.client_id, () => answerRevocation(body, endpointEnvironment));
}

// The client authenticated (rate-limit.ts) when its secret matched, or, for a public client (no
// secret), when the token it revoked was its own.
async function answerRevocation(body: Record<string, string>, endpointEnvironment: Environment | null): Promise<OAuthAnswer> {
  const challenge = { "WWW-Authenticate": 'Basic realm="wayline"' };
  const client = await authenticateClient(db(), { clientId: body.client_id, clientSecret: body.client_secret, environment: endpointEnvironment });
  if (!client) {
    const description = body.client_id ? "Unknown client or wrong client secret." : "Client authentication is required (HTTP Basic or client_id and client_secret).";
    return { response: oauthError(401, "invalid_client", description, challenge), clientAuthenticated: false };
  }
  if (!body.token) return { response: oauthError(400, "invalid_request", "token is required."), clientAuthenticated: !client.isPublic };

  const hash = sha256(body.token);
  const byAccess = () => findTokenByAccessHash(db(), { accessHash: hash });
  const byRefresh = () => findTokenByRefreshHash(db(), { refreshHash: hash });
  const [first, then] = body.token_type_hint === "refresh_token" ? [byRefresh, byAccess] : [byAccess, byRefresh];
  const row = (await first()) ?? (await then());
  const own = row !== null && row.credentialId === client.credentialId;
  if (row && own) await revokeFamily(db(), { familyId: row.familyId });
  return { response: new Response(null, { status: 200, headers: NO_STORE }), clientAuthenticated: !client.isPublic || own };
}
