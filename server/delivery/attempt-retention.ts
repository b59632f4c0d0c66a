import { sql } from "drizzle-orm";
import { db } from "@/db/client";
import { dropPartition, partitionsBefore } from "@/db/partitions";
import { logger } from "@/server/platform/log";

// Delivery attempts' retention (DELIVERY_ATTEMPT_RETENTION_DAYS): the attempts made more than N days ago
// go, as data points do (server/telemetry/retention.ts), but with no counter to keep: a month partition
// older than the cutoff is dropped whole, and the older attempts left (the month the cutoff falls in,
// the default partition) are deleted delivery by delivery in batches, through delivery_attempts_health_idx.
// The console's delivery health does not lose its history with them: it reads whole hours from
// delivery_attempt_rollups, which stay, and only the partial first 5 minutes of a window (at most 7 days
// back) from the attempts, which is why the retention is at least 8 days (server/platform/env.ts).

const BATCH = 2000;

export type AttemptRetentionResult = { deleted: number; partitions: number };

export async function deleteOldDeliveryAttempts({
  days,
  batch = BATCH,
  pause = () => Promise.resolve(),
}: {
  days: number;
  batch?: number;
  pause?: () => Promise<void>;
}): Promise<AttemptRetentionResult> {
  const cutoff = new Date(Date.now() - days * 86_400_000);
  const before = cutoff.toISOString();
  let deleted = 0;
  let partitions = 0;
  for (const partition of await partitionsBefore("delivery_attempts", cutoff)) {
    // Counted for the log only: no total depends on it (and attempts are written at the time they are made,
    // never into a past month).
    const [row] = (await db().execute(
      sql`select count(*)::int as n from ${sql.identifier(partition.name)}`,
    )) as unknown as { n: number }[];
    if (await dropPartition("delivery_attempts", partition)) {
      deleted += row?.n ?? 0;
      partitions++;
    }
    await pause();
  }
  // Deliveries with older attempts, one after the other: the next one is one probe of the index in each
  // partition left older than the cutoff.
  let after = -1;
  for (;;) {
    const [next] = (await db().execute(
      sql`select delivery_id from delivery_attempts where delivery_id > ${after} and attempted_at < ${before}::timestamptz
           order by delivery_id limit 1`,
    )) as unknown as { delivery_id: number }[];
    if (!next) break;
    after = next.delivery_id;
    for (;;) {
      const [row] = (await db().execute(sql`
        with d as (
          delete from delivery_attempts where attempted_at < ${before}::timestamptz and (id, attempted_at) in (
            select id, attempted_at from delivery_attempts where delivery_id = ${after} and attempted_at < ${before}::timestamptz
             limit ${batch} for update skip locked)
          returning 1)
        select count(*)::int as n from d`)) as unknown as { n: number }[];
      const n = row?.n ?? 0;
      deleted += n;
      if (n < batch) break;
      await pause();
    }
  }
  if (deleted > 0) logger.info({ days, deleted, partitions }, "retention deleted old delivery attempts");
  return { deleted, partitions };
}
