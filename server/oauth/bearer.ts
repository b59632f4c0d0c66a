import { eq, sql } from "drizzle-orm";
import { prepared } from "@/db/prepared";
import { appCredentials, oauthTokens, partnerApps, type Environment } from "@/db/schema";
import { ApiError } from "@/server/http/errors";
import { sha256 } from "@/server/security/secrets";
import type { Principal } from "./principal";

const invalidToken = (detail: string) =>
  new ApiError("UNAUTHORIZED", detail, [], { "WWW-Authenticate": 'Bearer realm="wayline", error="invalid_token"' });

// Runs on every API call, so it is built once (db/prepared.ts).
const tokenLookup = () =>
  prepared("token_lookup", (db) =>
    db
      .select({
        tokenId: oauthTokens.id,
        environment: oauthTokens.environment,
        accountId: oauthTokens.accountId,
        accessExpiresAt: oauthTokens.accessExpiresAt,
        revokedAt: oauthTokens.revokedAt,
        credentialId: appCredentials.id,
        clientId: appCredentials.clientId,
        appId: partnerApps.id,
        dataProvider: partnerApps.dataProvider,
      })
      .from(oauthTokens)
      .innerJoin(appCredentials, eq(appCredentials.id, oauthTokens.credentialId))
      .innerJoin(partnerApps, eq(partnerApps.id, appCredentials.appId))
      .where(eq(oauthTokens.accessHash, sql.placeholder("accessHash")))
      .limit(1)
      .prepare("token_lookup"),
  );

// Resolves "Authorization: Bearer …" to a principal of the given environment, or throws the
// contract's 401 (missing token: no error attribute; bad token: error="invalid_token").
export async function authenticateBearer(authorization: string | null, environment: Environment): Promise<Principal> {
  if (!authorization) {
    throw new ApiError("UNAUTHORIZED", "An access token is required.", [], { "WWW-Authenticate": 'Bearer realm="wayline"' });
  }
  const match = /^Bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(authorization);
  if (!match?.[1]) throw invalidToken("The access token is malformed.");

  const [row] = await tokenLookup().execute({ accessHash: sha256(match[1]) });

  // Unknown, revoked and other-environment tokens get the same answer: nothing about the token
  // is revealed except that it does not work here.
  if (!row || row.revokedAt || row.environment !== environment) throw invalidToken("The access token is invalid or has been revoked.");
  if (row.accessExpiresAt.getTime() <= Date.now()) throw invalidToken("The access token has expired.");

  const base = {
    environment: row.environment,
    tokenId: row.tokenId,
    appId: row.appId,
    credentialId: row.credentialId,
    clientId: row.clientId,
    dataProvider: row.dataProvider,
  };
  return row.accountId === null ? { ...base, kind: "client", accountId: null } : { ...base, kind: "user", accountId: row.accountId };
}
