import type postgres from "postgres";
import { latencyBin } from "@/common/delivery/latency-histogram";

// The delivery health rollup (delivery_attempt_rollups, docs/console.md#delivery-health), written
// in the transaction that inserts the attempts (recordBatch), so the rollup holds exactly the
// committed attempts. Each attempt counts in a 5-minute bucket and in a 1-hour bucket of its
// delivery (the hour's rows keep the 24-hour and 7-day reads to at most 169 rows a delivery; the
// 5-minute rows give the last hour its detail). The batch's attempts are summed per row here, and
// each row is added to what is there with one INSERT … ON CONFLICT DO UPDATE, which takes the
// row's lock: two workers recording the same row at once add up one after the other. Rows go in
// key order, so transactions that touch several rows lock them in the same order (no
// deadlock), and the statement comes last in the transaction, so the lock is held only to commit.

/** The rollup's bucket widths, finest first; a window reads the attempts of its first, partial 5 minutes from delivery_attempts. */
export const ROLLUP_BUCKET_SECONDS = [300, 3600] as const;

/** Start of the bucket of `seconds` holding `at` (UTC grid, like date_bin(seconds, at, epoch)). */
export const bucketStart = (at: Date, seconds: number) =>
  new Date(Math.floor(at.getTime() / (seconds * 1000)) * seconds * 1000);

/** The key of a failure in `failures`: the HTTP status, or "none" when there was no answer. */
const failureKey = (httpStatus: number | null) => (httpStatus === null ? "none" : String(httpStatus));

type Attempt = { deliveryId: number; attemptedAt: Date; outcome: string; httpStatus: number | null; latencyMs: number };
export type RollupRow = {
  deliveryId: number;
  bucketSeconds: number;
  bucketStart: Date;
  attempts: number;
  delivered: number;
  failures: Record<string, number>;
  latency: Record<string, number>;
};

/** A batch's attempts summed per (delivery, width, bucket), in key order. A REDIRECTED leg is not an attempt (the attempt that follows it is). */
export function rollupRows(attempts: Attempt[]): RollupRow[] {
  const rows = new Map<string, RollupRow>();
  for (const a of attempts) {
    if (a.outcome === "REDIRECTED") continue;
    for (const bucketSeconds of ROLLUP_BUCKET_SECONDS) {
      const start = bucketStart(a.attemptedAt, bucketSeconds);
      const key = `${a.deliveryId}:${bucketSeconds}:${start.getTime()}`;
      let row = rows.get(key);
      if (!row)
        rows.set(
          key,
          (row = {
            deliveryId: a.deliveryId,
            bucketSeconds,
            bucketStart: start,
            attempts: 0,
            delivered: 0,
            failures: {},
            latency: {},
          }),
        );
      row.attempts += 1;
      if (a.outcome === "DELIVERED") row.delivered += 1;
      else row.failures[failureKey(a.httpStatus)] = (row.failures[failureKey(a.httpStatus)] ?? 0) + 1;
      const bin = String(latencyBin(a.latencyMs));
      row.latency[bin] = (row.latency[bin] ?? 0) + 1;
    }
  }
  return [...rows.values()].sort(
    (x, y) =>
      x.deliveryId - y.deliveryId ||
      x.bucketSeconds - y.bucketSeconds ||
      x.bucketStart.getTime() - y.bucketStart.getTime(),
  );
}

/** Adds a batch's attempts to the rollup, inside the transaction `sql` that inserts them. */
export async function recordAttemptRollups(sql: postgres.TransactionSql, attempts: Attempt[]): Promise<void> {
  const rows = rollupRows(attempts);
  if (rows.length === 0) return;
  // The rows travel as one JSON text (cast to text, so no client's JSON serialiser touches it:
  // drizzle swaps postgres.js's for a pass-through on the pool it wraps, the test helpers' have it).
  const payload = JSON.stringify(rows.map((row) => ({ ...row, bucketStart: row.bucketStart.toISOString() })));
  await sql`
    insert into delivery_attempt_rollups (delivery_id, bucket_seconds, bucket_start, attempts, delivered, failures, latency)
    select "deliveryId", "bucketSeconds", "bucketStart", attempts, delivered, failures, latency
    from jsonb_to_recordset(${payload}::text::jsonb)
      as x("deliveryId" int, "bucketSeconds" int, "bucketStart" timestamptz, attempts int, delivered int, failures jsonb, latency jsonb)
    order by 1, 2, 3
    on conflict (delivery_id, bucket_seconds, bucket_start) do update set
      attempts = delivery_attempt_rollups.attempts + excluded.attempts,
      delivered = delivery_attempt_rollups.delivered + excluded.delivered,
      -- two JSON objects of counts, added key by key
      failures = (select coalesce(jsonb_object_agg(key, n), '{}'::jsonb) from (select key, sum(value::int) as n
        from (select * from jsonb_each_text(delivery_attempt_rollups.failures) union all select * from jsonb_each_text(excluded.failures)) e group by key) s),
      latency = (select coalesce(jsonb_object_agg(key, n), '{}'::jsonb) from (select key, sum(value::int) as n
        from (select * from jsonb_each_text(delivery_attempt_rollups.latency) union all select * from jsonb_each_text(excluded.latency)) e group by key) s)`;
}
