import { db } from "@/db/client";
import type { Environment } from "@/db/schema";
import { sha256 } from "@/server/platform/security/secrets";
import { authenticateClient } from "./client-auth";
import { invalidClient, invalidRequest, type ClientProof } from "./oauth-error";
import { findTokenByAccessHash, findTokenByRefreshHash, revokeFamily } from "./queries";
import { revokeAppAuthorization } from "@/server/grants/revocation";

// A revocation request (RFC 7009), its form already read and its client credentials merged
// (server/http/with-oauth-endpoint.ts). The client authenticates as at the token endpoint; `token`
// may be an access or a refresh token (token_type_hint only decides which is looked up first).
// Revoking a client-credentials token ends its family: the access token, its refresh token and
// every rotation of them. Revoking a token of an account (access or refresh) ends the app's access
// to that account, as the driver's revoke button does (server/grants/revocation.ts): every token of
// the grant, its codes, its queued deliveries, and an ACCESSREVOKED app event; the app must ask the driver
// for consent again (docs/decisions/0100-revocations-that-end-access.md). Unknown tokens and tokens of other
// clients are answered like any other (RFC 7009 §2.2), so the endpoint tells nobody which tokens
// exist. Not through the library: its revocation decodes JWTs, and Wayline's tokens are opaque.
// The client authenticated (`proof`) when its secret matched, or, for a public client (no secret),
// when the token it revoked was its own.
export async function revokeToken(
  form: Record<string, string>,
  endpointEnvironment: Environment | null,
  proof: ClientProof,
): Promise<void> {
  const client = await authenticateClient(db(), {
    clientId: form.client_id,
    clientSecret: form.client_secret,
    environment: endpointEnvironment,
  });
  if (!client) {
    throw invalidClient(
      form.client_id
        ? "Unknown client or wrong client secret."
        : "Client authentication is required (HTTP Basic or client_id and client_secret).",
    );
  }
  proof.clientAuthenticated = !client.isPublic;
  if (!form.token) throw invalidRequest("token is required.");

  const hash = sha256(form.token);
  const byAccess = () => findTokenByAccessHash(db(), { accessHash: hash });
  const byRefresh = () => findTokenByRefreshHash(db(), { refreshHash: hash });
  const [first, then] = form.token_type_hint === "refresh_token" ? [byRefresh, byAccess] : [byAccess, byRefresh];
  const row = (await first()) ?? (await then());
  const own = row !== null && row.credentialId === client.credentialId;
  if (row && own) {
    await revokeFamily(db(), { familyId: row.familyId });
    if (row.accountId !== null)
      await revokeAppAuthorization({ environment: client.environment, accountId: row.accountId, appId: client.appId });
  }
  if (own) proof.clientAuthenticated = true;
}
