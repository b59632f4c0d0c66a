import { sql } from "drizzle-orm";
import { db } from "@/db/client";
import { logger } from "@/server/platform/log";

// Data retention (DATA_POINT_RETENTION_DAYS): data points recorded more than N days ago are
// deleted, vehicle by vehicle, in batches of BATCH rows, each batch one short statement (its own
// transaction) that also takes the deleted points off the vehicle's counters (vehicle_data_stats,
// vehicle_key_stats), so list totals stay exact. No long lock: ingest for the vehicle waits at
// most one batch on its counter row, and rows another deleter holds are skipped (two workers may
// run the job at once). Data sets, trips and notifications stay: a data set then reads with
// fewer (or no) data points.

const BATCH = 2000;

export type RetentionResult = { vehicles: number; deleted: number };

export async function deleteOldDataPoints({
  days,
  batch = BATCH,
  pause = () => Promise.resolve(),
}: {
  days: number;
  batch?: number;
  pause?: () => Promise<void>;
}): Promise<RetentionResult> {
  const cutoff = new Date(Date.now() - days * 86_400_000).toISOString();
  let deleted = 0;
  let vehicles = 0;
  let after = 0;
  for (;;) {
    // Only vehicles that have points, a page of ids at a time.
    const page = (await db().execute(
      sql`select vehicle_id as id from vehicle_data_stats where vehicle_id > ${after} and data_points > 0 order by vehicle_id limit 500`,
    )) as unknown as { id: number }[];
    if (page.length === 0) break;
    for (const { id } of page) {
      let any = false;
      for (;;) {
        const [row] = (await db().execute(sql`
          with d as (
            delete from data_points where id in (
              select id from data_points where vehicle_id = ${id} and recorded_at < ${cutoff}::timestamptz
               limit ${batch} for update skip locked)
            returning key),
          k as (select key, count(*) as n from d group by key),
          ks as (update vehicle_key_stats s set data_points = s.data_points - k.n from k where s.vehicle_id = ${id} and s.key = k.key),
          vs as (update vehicle_data_stats set data_points = data_points - (select count(*) from d) where vehicle_id = ${id} and exists (select 1 from d))
          select count(*)::int as n from d`)) as unknown as { n: number }[];
        const n = row?.n ?? 0;
        deleted += n;
        if (n > 0) any = true;
        if (n < batch) break;
        await pause();
      }
      if (any) vehicles++;
    }
    after = page[page.length - 1]!.id;
  }
  if (deleted > 0) logger.info({ days, deleted, vehicles }, "data retention deleted old data points");
  return { vehicles, deleted };
}
