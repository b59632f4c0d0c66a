import { sql, type SQL } from "drizzle-orm";
import { db } from "@/db/client";
import type { Environment } from "@/db/schema";
import { logger } from "@/server/log";
import type { Policy } from "./policies";
import type { Verdict } from "./verdict";

// The buckets in the database (db/schema/rate-limits.ts), GCRA in one statement per check: each
// row's upsert takes one request's worth out of its bucket if it fits and says whether it did,
// under the row lock, so concurrent checks from any number of processes count exactly. The
// database's clock is the only clock.

export type Check = { policy: Policy; key: string };

type Row = { scope: string; key: string; allowed: boolean; ahead_ms: number };

const MS = sql`interval '1 millisecond'`;
// Fits: one more request, after the bucket's backlog, stays within `burst` requests of now.
const FITS = sql`greatest(r.tat, now()) + excluded.emission_ms * ${MS} <= now() + excluded.burst * excluded.emission_ms * ${MS}`;

// `rows` is a select of (scope, key, emission_ms, burst): the buckets to take from. A new bucket
// starts full, so its first request always fits.
function upsert(rows: SQL): SQL {
  return sql`insert into rate_limits as r (scope, key, tat, emission_ms, burst, allowed)
    select k.scope, k.key, now() + k.emission_ms * ${MS}, k.emission_ms, k.burst, true from (${rows}) as k
    on conflict (scope, key) do update set
      emission_ms = excluded.emission_ms,
      burst = excluded.burst,
      allowed = ${FITS},
      tat = case when ${FITS} then greatest(r.tat, now()) + excluded.emission_ms * ${MS} else r.tat end
    returning r.scope, r.key, r.allowed, (extract(epoch from r.tat - now()) * 1000)::float8 as ahead_ms`;
}

const valuesOf = (checks: Check[]) =>
  sql`select * from (values ${sql.join(
    checks.map((c) => sql`(${c.policy.scope}::text, ${c.key}::text, ${c.policy.emissionMs}::float8, ${c.policy.quota}::int)`),
    sql`, `,
  )}) as v(scope, key, emission_ms, burst)`;

function verdicts(rows: Row[], policies: Policy[]): Verdict[] {
  // In the order the policies were given, whatever order the database returned the rows in.
  return policies.flatMap((policy) => rows.filter((r) => r.scope === policy.scope).map((r) => ({ policy, key: r.key, allowed: r.allowed, aheadMs: Number(r.ahead_ms) })));
}

/** Takes one request from each bucket that has room; the verdicts say which did. */
export async function takeFromBuckets(checks: Check[]): Promise<Verdict[]> {
  if (checks.length === 0) return [];
  sweepNowAndThen();
  const rows = (await db().execute(upsert(valuesOf(checks)))) as unknown as Row[];
  return verdicts(rows, checks.map((c) => c.policy));
}

/**
 * The API's check: the buckets of the access token whose hash is `accessHash` and of its client,
 * found in the same statement (so it needs no earlier lookup and can run beside the request's
 * own). A token that does not work here (unknown, revoked, expired, of the other environment)
 * takes nothing and gets no verdicts: the request is answered 401 anyway.
 */
export async function takeForAccessToken({ accessHash, environment, token, client }: { accessHash: string; environment: Environment; token: Policy; client: Policy }): Promise<Verdict[]> {
  sweepNowAndThen();
  const rows = sql`
    with t as (
      select t.id::text as token_key, c.client_id
        from oauth_tokens t join app_credentials c on c.id = t.credential_id
       where t.access_hash = ${accessHash} and t.environment = ${environment} and t.revoked_at is null and t.access_expires_at > now()
    )
    select ${token.scope}::text as scope, token_key as key, ${token.emissionMs}::float8 as emission_ms, ${token.quota}::int as burst from t
    union all
    select ${client.scope}::text, client_id, ${client.emissionMs}::float8, ${client.quota}::int from t`;
  const result = (await db().execute(upsert(rows))) as unknown as Row[];
  return verdicts(result, [token, client]);
}

/**
 * Gives back the request these buckets counted (for a request another bucket refused, or one that
 * turned out not to count), and updates the verdicts to match, so the headers tell the truth.
 */
export async function giveBack(taken: Verdict[]): Promise<void> {
  if (taken.length === 0) return;
  for (const v of taken) v.aheadMs -= v.policy.emissionMs;
  const keys = sql.join(
    taken.map((c) => sql`(${c.policy.scope}::text, ${c.key}::text)`),
    sql`, `,
  );
  await db().execute(sql`update rate_limits set tat = tat - emission_ms * ${MS} where (scope, key) in (${keys})`);
}

// A bucket whose `tat` has passed is full: its row says nothing a missing row would not. Each
// process drops such rows about once a minute, in the background of a check; without an index
// on `tat` (which would cost every update its HOT path) it is one scan of a table that only holds
// buckets used in the last windows.
const SWEEP_EVERY_MS = 60_000;
let lastSweep = Date.now();

function sweepNowAndThen(): void {
  if (Date.now() - lastSweep < SWEEP_EVERY_MS) return;
  lastSweep = Date.now();
  db()
    .execute(sql`delete from rate_limits where tat < now() - interval '1 minute'`)
    .catch((error: unknown) => logger.error({ err: error }, "rate-limit sweep failed"));
}
