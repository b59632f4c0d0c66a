import { rawSql } from "@/db/client";
import { epochMs } from "@/db/fragments";
import type { Environment } from "@/db/schema";
import { ApiError } from "@/common/http/errors";
import { sha256 } from "@/server/security/secrets";
import { noteTokenUse } from "./last-use";
import type { Principal } from "./principal";

const invalidToken = (detail: string) =>
  new ApiError("UNAUTHORIZED", detail, [], { "WWW-Authenticate": 'Bearer realm="wayline", error="invalid_token"' });

type TokenRow = {
  token_id: number;
  environment: Environment;
  account_id: number | null;
  access_expires_at: number;
  revoked: boolean;
  credential_id: number;
  client_id: string;
  app_id: number;
  data_provider: boolean;
};

// Runs on every API call: straight through postgres.js (prepared, as every statement of its pool
// on PostgreSQL), with the expiry as epoch ms. drizzle's result mapping cost more CPU here than
// PostgreSQL spends answering (profiled under load, bench:ingest and bench:api).
async function tokenRow(hash: string): Promise<TokenRow | undefined> {
  const sql = rawSql();
  const [row] = await sql<TokenRow[]>`
    select t.id as token_id, t.environment, t.account_id, ${epochMs(sql, sql`t.access_expires_at`)} as access_expires_at, t.revoked_at is not null as revoked,
           c.id as credential_id, c.client_id, a.id as app_id, a.data_provider
      from oauth_tokens t
      join app_credentials c on c.id = t.credential_id
      join partner_apps a on a.id = c.app_id
     where t.access_hash = ${hash}
     limit 1`;
  return row;
}

// Resolves "Authorization: Bearer …" to a principal of the given environment, or throws the
// API's 401 (missing token: no error attribute; bad token: error="invalid_token").
export async function authenticateBearer(authorization: string | null, environment: Environment): Promise<Principal> {
  return lookUpToken(sha256(tokenOf(authorization)), environment);
}

const BEARER = /^Bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i;

function tokenOf(authorization: string | null): string {
  if (!authorization) {
    throw new ApiError("UNAUTHORIZED", "An access token is required.", [], { "WWW-Authenticate": 'Bearer realm="wayline"' });
  }
  const match = BEARER.exec(authorization);
  if (!match?.[1]) throw invalidToken("The access token is malformed.");
  return match[1];
}

/** What oauth_tokens.access_hash would hold for this header's token; null when there is no well-formed one. */
export function bearerHash(authorization: string | null): string | null {
  const token = authorization ? BEARER.exec(authorization)?.[1] : undefined;
  return token ? sha256(token) : null;
}

async function lookUpToken(hash: string, environment: Environment): Promise<Principal> {
  const row = await tokenRow(hash);

  // Unknown, revoked and other-environment tokens get the same answer: nothing about the token
  // is revealed except that it does not work here.
  if (!row || row.revoked || row.environment !== environment) throw invalidToken("The access token is invalid or has been revoked.");
  if (row.access_expires_at <= Date.now()) throw invalidToken("The access token has expired.");

  const base = {
    environment: row.environment,
    tokenId: row.token_id,
    appId: row.app_id,
    credentialId: row.credential_id,
    clientId: row.client_id,
    dataProvider: row.data_provider,
  };
  const principal: Principal = row.account_id === null ? { ...base, kind: "client", accountId: null } : { ...base, kind: "user", accountId: row.account_id };
  noteTokenUse(principal);
  return principal;
}
