import { rawSql } from "@/db/client";
import type { Fragment, Sql } from "@/db/fragments";
import type { Environment } from "@/db/schema";
import { ApiError } from "@/common/http/errors";
import { bucketRow, takeFrom, verdictsOf, type TakenRow } from "@/server/platform/rate-limits/buckets";
import type { Policy } from "@/server/platform/rate-limits/policies";
import type { Verdict } from "@/server/platform/rate-limits/verdict";
import { sha256 } from "@/server/platform/security/secrets";
import type { LocationPrecision } from "@/common/oauth/grant-scope";
import { noteGrantUse, noteTokenUse } from "./last-use";
import type { Principal } from "./principal";

// "Authorization: Bearer …" on every API call: one statement decides whether the token works here,
// reads what the driver granted the app (a user token's grant, by its primary key), and meters the
// request (docs/api.md#rate-limits). A working token takes one request from its
// token's and its client's buckets; a request without one (no header, a malformed one, an unknown,
// revoked, expired or other-environment token) takes one from its address's bucket, so guessing is
// paced too and every answer, 401s included, says how its bucket stands. The header is hashed
// once, and the token's validity is decided once, in SQL, on the database's clock (the clock the
// buckets use): the statement says which of working, expired or invalid it is, and the 401's
// detail follows from that.
//
// Straight through postgres.js (prepared, as every statement of its pool on PostgreSQL), with
// the expiry decided in the statement: drizzle's result mapping cost more CPU here than
// PostgreSQL spends answering (profiled under load, bench:ingest and bench:api).

/** The API's buckets and the caller's address; null when rate limits are off. */
export type Metering = { token: Policy; client: Policy; address: Policy; key: string } | null;

export type Admission = {
  /** The buckets the request drew on (none when limits are off). */
  verdicts: Verdict[];
} & ({ principal: Principal; refused: null } | { principal: null; refused: ApiError });

const invalidToken = (detail: string) =>
  new ApiError("UNAUTHORIZED", detail, [], { "WWW-Authenticate": 'Bearer realm="wayline", error="invalid_token"' });

const BEARER = /^Bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i;

type TokenRow = {
  token_id: number | null;
  environment: Environment;
  account_id: number | null;
  state: "working" | "expired" | "invalid";
  credential_id: number;
  client_id: string;
  app_id: number;
  data_provider: boolean;
  location_precision: LocationPrecision | null;
  data_scope: boolean | null;
  account_scope: boolean | null;
  taken: TakenRow[] | null;
};

/** Authenticates the request's bearer token into a principal, or the 401 it earns, and meters it. */
export async function authenticateBearer({
  authorization,
  environment,
  metering,
}: {
  authorization: string | null;
  environment: Environment;
  metering: Metering;
}): Promise<Admission> {
  const sql = rawSql();
  const header = tokenOf(authorization);
  const policies = metering ? [metering.token, metering.client, metering.address] : [];
  if (header instanceof ApiError) {
    // Nothing to look up: the request takes from its address's bucket alone.
    const rows = metering
      ? await sql<TakenRow[]>`${takeFrom(sql, bucketRow(sql, metering.address, sql`${metering.key}`))}`
      : [];
    return { verdicts: verdictsOf(rows, policies), principal: null, refused: header };
  }

  const [row] = await sql<TokenRow[]>`${lookUp(sql, sha256(header), environment, metering)}`;
  const verdicts = verdictsOf(row?.taken ?? [], policies);
  // Unknown, revoked and other-environment tokens get the same answer: nothing about the token
  // is revealed except that it does not work here.
  if (!row || row.token_id === null || row.state === "invalid")
    return { verdicts, principal: null, refused: invalidToken("The access token is invalid or has been revoked.") };
  if (row.state === "expired")
    return { verdicts, principal: null, refused: invalidToken("The access token has expired.") };

  const base = {
    environment: row.environment,
    via: "token" as const,
    tokenId: row.token_id,
    appId: row.app_id,
    credentialId: row.credential_id,
    clientId: row.client_id,
    dataProvider: row.data_provider,
  };
  const principal: Principal =
    row.account_id === null
      ? { ...base, kind: "client", accountId: null, grant: null }
      : {
          ...base,
          kind: "user",
          accountId: row.account_id,
          grant: {
            location: row.location_precision ?? "none",
            data: row.data_scope ?? false,
            account: row.account_scope ?? false,
          },
        };
  noteTokenUse(principal);
  return { verdicts, principal, refused: null };
}

/**
 * The statement: the token by its hash and what it is here (`t`), and, with limits on, the
 * buckets it takes from (`taken`): its token's and client's when it works, else its address's.
 * Always one row (its token columns null for an unknown token), carrying the buckets' rows.
 */
function lookUp(sql: Sql, hash: string, environment: Environment, metering: Metering): Fragment {
  const token = sql`
    select t.id as token_id, t.environment, t.account_id, ${tokenState(sql, environment)} as state,
           c.id as credential_id, c.client_id, a.id as app_id, a.data_provider,
           g.location_precision, g.data_scope, g.account_scope
      from oauth_tokens t
      join app_credentials c on c.id = t.credential_id
      join partner_apps a on a.id = c.app_id
      left join account_grants g on g.account_id = t.account_id and g.app_id = a.id
     where t.access_hash = ${hash}
     limit 1`;
  if (!metering) return sql`select t.*, null as taken from (${token}) t`;
  const working = sql`(select * from t where t.state = 'working')`;
  return sql`
    with t as (${token}),
    taken as (${takeFrom(
      sql,
      sql`${bucketRow(sql, metering.token, sql`w.token_id`)} from ${working} w
          union all ${bucketRow(sql, metering.client, sql`w.client_id`)} from ${working} w
          union all ${bucketRow(sql, metering.address, sql`${metering.key}`)} where not exists ${working}`,
    )})
    select t.*, (select json_agg(taken) from taken) as taken
      from (select 1) one left join t on true`;
}

/** What a token of `oauth_tokens t` is in `environment`, decided on the database's clock. */
function tokenState(sql: Sql, environment: Environment): Fragment {
  return sql`case when t.revoked_at is not null or t.environment <> ${environment} then 'invalid'
                  when t.access_expires_at <= now() then 'expired'
                  else 'working' end`;
}

/**
 * Which of these Authorization headers still carry a working token in `environment`: what
 * authenticateBearer decides, for many tokens in one statement and without metering (the open
 * streams' re-check, server/http/stream-token-watch.ts). A working user token still counts as a
 * use of its grant, as a request does.
 */
export async function stillWorking(authorizations: string[], environment: Environment): Promise<Set<string>> {
  const byHash = new Map<string, string>();
  for (const authorization of authorizations) {
    const token = tokenOf(authorization);
    if (typeof token === "string") byHash.set(sha256(token), authorization);
  }
  if (byHash.size === 0) return new Set();
  const sql = rawSql();
  const rows = await sql<{ access_hash: string; account_id: number | null; app_id: number }[]>`
    select t.access_hash, t.account_id, c.app_id
      from oauth_tokens t
      join app_credentials c on c.id = t.credential_id
      join partner_apps a on a.id = c.app_id
     where t.access_hash = any(${[...byHash.keys()]}::text[]) and ${tokenState(sql, environment)} = 'working'`;
  const working = new Set<string>();
  for (const row of rows) {
    working.add(byHash.get(row.access_hash)!);
    if (row.account_id !== null) noteGrantUse({ accountId: row.account_id, appId: row.app_id });
  }
  return working;
}

function tokenOf(authorization: string | null): string | ApiError {
  if (!authorization)
    return new ApiError("UNAUTHORIZED", "An access token is required.", [], {
      "WWW-Authenticate": 'Bearer realm="wayline"',
    });
  const match = BEARER.exec(authorization);
  if (!match?.[1]) return invalidToken("The access token is malformed.");
  return match[1];
}
