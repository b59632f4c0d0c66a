import { rawSql, canPrepare } from "@/db/client";
import { epochMs } from "@/db/raw";
import type { Environment } from "@/db/schema";
import { ApiError } from "@/server/http/errors";
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

// Runs on every API call: straight through postgres.js, prepared, with the expiry as epoch ms.
// drizzle's result mapping cost more CPU here than PostgreSQL spends answering (profiled under
// load, bench:ingest and bench:api).
const TOKEN_LOOKUP = `
  select t.id as token_id, t.environment, t.account_id, ${epochMs("t.access_expires_at")} as access_expires_at, t.revoked_at is not null as revoked,
         c.id as credential_id, c.client_id, a.id as app_id, a.data_provider
    from oauth_tokens t
    join app_credentials c on c.id = t.credential_id
    join partner_apps a on a.id = c.app_id
   where t.access_hash = $1
   limit 1`;

/**
 * The same check as a condition, for a statement that writes on a principal looked up earlier
 * (deferredBearer): the token whose hash is `hash` (an SQL expression) still works, and its app
 * is still a data provider when `needsDataProvider` (an SQL boolean) says the write needs one.
 */
export function tokenStillWorks(hash: string, needsDataProvider: string): string {
  return `exists (select 1 from oauth_tokens t join app_credentials c on c.id = t.credential_id join partner_apps a on a.id = c.app_id
                   where t.access_hash = ${hash} and t.revoked_at is null and t.access_expires_at > now() and (a.data_provider or not ${needsDataProvider}))`;
}

// Resolves "Authorization: Bearer …" to a principal of the given environment, or throws the
// API's 401 (missing token: no error attribute; bad token: error="invalid_token").
export async function authenticateBearer(authorization: string | null, environment: Environment): Promise<Principal> {
  return lookUpToken(sha256(tokenOf(authorization)), environment);
}

/**
 * A well-formed bearer token, not yet looked up: for a handler that can check the token in its
 * own statement (ingest's write, server/telemetry/recent-vehicles.ts) and look it up only when
 * that does not do. `hash` is what oauth_tokens.access_hash holds.
 */
export type Bearer = { environment: Environment; hash: string; authenticate(): Promise<Principal> };

/** The token's form is checked at once (401 as authenticateBearer); the lookup waits for authenticate(). */
export function deferredBearer(authorization: string | null, environment: Environment): Bearer {
  const hash = sha256(tokenOf(authorization));
  let principal: Promise<Principal> | undefined;
  return { environment, hash, authenticate: () => (principal ??= lookUpToken(hash, environment)) };
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
  const [row] = (await rawSql().unsafe(TOKEN_LOOKUP, [hash], { prepare: canPrepare() })) as unknown as TokenRow[];

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
