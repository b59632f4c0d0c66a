import { rawSql } from "@/db/client";
import type { Fragment, Sql } from "@/db/fragments";
import { logger } from "@/server/platform/log";
import type { Policy } from "./policies";
import type { Verdict } from "./verdict";

// The buckets in the database (db/schema/rate-limits.ts), GCRA in one statement per check: each
// row's upsert takes one request's worth out of its bucket if it fits and says whether it did,
// under the row lock, so concurrent checks from any number of processes count exactly. The
// database's clock is the only clock. Every API request meters here (inside the bearer lookup's
// statement, server/api-auth/bearer.ts), so this is a hot path in postgres.js
// (docs/architecture.md#reaching-the-database).

export type Check = { policy: Policy; key: string };

/** What the upsert returns for each bucket it took from (or found empty). */
export type TakenRow = { scope: string; key: string; allowed: boolean; ahead_ms: number };

const MS = (sql: Sql) => sql`interval '1 millisecond'`;
// Fits: one more request, after the bucket's backlog, stays within `burst` requests of now.
const FITS = (sql: Sql) =>
  sql`greatest(r.tat, now()) + excluded.emission_ms * ${MS(sql)} <= now() + excluded.burst * excluded.emission_ms * ${MS(sql)}`;

/**
 * The upsert, written once: `rows` is a select of (scope, key, emission_ms, burst), the buckets to
 * take from. A new bucket starts full, so its first request always fits. A whole statement for
 * takeFromBuckets, a data-modifying CTE in the bearer lookup's.
 */
export function takeFrom(sql: Sql, rows: Fragment): Fragment {
  sweepNowAndThen();
  return sql`insert into rate_limits as r (scope, key, tat, emission_ms, burst, allowed)
    select k.scope, k.key, now() + k.emission_ms * ${MS(sql)}, k.emission_ms, k.burst, true from (${rows}) as k
    on conflict (scope, key) do update set
      emission_ms = excluded.emission_ms,
      burst = excluded.burst,
      allowed = ${FITS(sql)},
      tat = case when ${FITS(sql)} then greatest(r.tat, now()) + excluded.emission_ms * ${MS(sql)} else r.tat end
    returning r.scope, r.key, r.allowed, (extract(epoch from r.tat - now()) * 1000)::float8 as ahead_ms`;
}

/** One bucket to take from, as a row of takeFrom's `rows`: the policy's scope and `key` (a parameter or a column). */
export const bucketRow = (sql: Sql, policy: Policy, key: Fragment): Fragment =>
  sql`select ${policy.scope}::text as scope, ${key}::text as key, ${policy.emissionMs}::float8 as emission_ms, ${policy.quota}::int as burst`;

/** The verdicts in the order the policies were given, whatever order the database returned the rows in. */
export function verdictsOf(rows: TakenRow[], policies: Policy[]): Verdict[] {
  return policies.flatMap((policy) =>
    rows
      .filter((r) => r.scope === policy.scope)
      .map((r) => ({ policy, key: r.key, allowed: r.allowed, aheadMs: Number(r.ahead_ms) })),
  );
}

/** Takes one request from each bucket that has room; the verdicts say which did. */
export async function takeFromBuckets(checks: Check[]): Promise<Verdict[]> {
  if (checks.length === 0) return [];
  const sql = rawSql();
  const rows = checks.map((c, i) =>
    i === 0 ? bucketRow(sql, c.policy, sql`${c.key}`) : sql`union all ${bucketRow(sql, c.policy, sql`${c.key}`)}`,
  );
  const taken = await sql<TakenRow[]>`${takeFrom(sql, sql`${rows}`)}`;
  return verdictsOf(
    taken,
    checks.map((c) => c.policy),
  );
}

/**
 * Gives back the request these buckets counted (for a request another bucket refused, or one that
 * turned out not to count), and updates the verdicts to match, so the headers tell the truth.
 */
export async function giveBack(taken: Verdict[]): Promise<void> {
  if (taken.length === 0) return;
  for (const v of taken) v.aheadMs -= v.policy.emissionMs;
  const sql = rawSql();
  await sql`update rate_limits set tat = tat - emission_ms * ${MS(sql)}
             where (scope, key) in (select * from unnest(${taken.map((v) => v.policy.scope)}::text[], ${taken.map((v) => v.key)}::text[]))`;
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
  rawSql()`delete from rate_limits where tat < now() - interval '1 minute'`
    .execute()
    .catch((error: unknown) => logger.error({ err: error }, "rate-limit sweep failed"));
}
