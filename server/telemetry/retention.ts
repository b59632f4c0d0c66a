import { sql } from "drizzle-orm";
import { db } from "@/db/client";
import { lockNotAvailable } from "@/db/errors";
import { detachPartition, dropDetached, partitionsBefore, type MonthPartition } from "@/db/partitions";
import { logger } from "@/server/platform/log";

// Data retention (DATA_POINT_RETENTION_DAYS): data points recorded more than N days ago are deleted, and the
// totals the API reports (vehicle_data_stats, vehicle_key_stats) stay exact. Two ways, oldest first:
//
// 1. A month partition of data_points whose every point is older than the cutoff goes whole
//    (docs/partitions.md#retention): one transaction takes its rows off the counters and detaches it from
//    data_points, so the counters and the rows change together at its commit; then the detached table is
//    dropped, which removes its files while no request waits for it. The counters hold each key's points by
//    month (vehicle_key_stats.month): the transaction takes the month's counter rows off the totals under a
//    SHARE lock on that month (late points for that month wait), without counting its points, so it takes the
//    same time however many the month holds; the detach then takes the whole table's lock for a moment.
//    Hourly, the month is already empty by then (way 2 took its points an hour at a time): the drop gives the
//    disk back at once, with no vacuum. It is the way of a first run, or after the worker was down: a month's
//    points without a delete each.
// 2. The rest (the month the cutoff falls in, and the default partition), vehicle by vehicle, in batches of
//    BATCH rows, each batch one short statement (its own transaction) that also takes the deleted points
//    off the vehicle's counters. No long lock: ingest for the vehicle waits at most one batch on its counter
//    row, and rows another deleter holds are skipped (two workers may run the job at once).
//
// Each key's newest point (latest_data_points) goes with the point it copies, so the newest a read reports is
// one the vehicle still has. Data sets, trips and notifications stay: a data set then reads with fewer (or no)
// data points.

const BATCH = 2000;

export type RetentionResult = { vehicles: number; deleted: number; partitions: number };

export async function deleteOldDataPoints({
  days,
  batch = BATCH,
  pause = () => Promise.resolve(),
}: {
  days: number;
  batch?: number;
  pause?: () => Promise<void>;
}): Promise<RetentionResult> {
  const cutoff = new Date(Date.now() - days * 86_400_000);
  const vehicles = new Set<number>();
  let deleted = 0;
  const partitions = await partitionsBefore("data_points", cutoff);
  for (const partition of partitions) {
    const began = performance.now();
    let points = 0;
    const emptied = await emptyPartition(partition, pause);
    for (const { vehicle_id, n } of emptied.perVehicle) {
      vehicles.add(vehicle_id);
      points += n;
    }
    const emptiedAt = performance.now();
    await dropDetached("data_points");
    // How long the month's transaction (counters, detach, commit: what requests may wait for) and the drop of
    // the detached month (what none waits for) took: what bench:scale reports.
    logger.info(
      {
        partition: partition.name,
        points,
        emptyMs: Math.round(emptiedAt - began),
        countersMs: emptied.countersMs,
        detachMs: emptied.detachMs,
        commitMs: emptied.commitMs,
        dropMs: Math.round(performance.now() - emptiedAt),
      },
      "data retention emptied a month of data points",
    );
    deleted += points;
    await pause();
  }
  deleted += await deleteInBatches({ cutoff, batch, pause, vehicles });
  if (deleted > 0 || partitions.length > 0)
    logger.info(
      { days, deleted, vehicles: vehicles.size, partitions: partitions.length },
      "data retention deleted old data points",
    );
  return { vehicles: vehicles.size, deleted, partitions: partitions.length };
}

/**
 * Takes a month's points off the counters and detaches it, in one transaction: how many points of each vehicle
 * went. It gives way rather than wait: a lock it waits for more than LOCK_WAIT (a late write into that
 * month, a counter row an ingest holds, a read of data_points before the detach) ends it, to be tried again
 * after a pause. So the requests queued behind a lock it waits for wait no longer than that, and an ingest
 * write group (which locks its vehicles' counter rows in its own order) cannot deadlock with it: it is
 * the one that gives up, before PostgreSQL's deadlock check (1 s) would pick either.
 */
async function emptyPartition(partition: MonthPartition, pause: () => Promise<void>): Promise<Emptied> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await emptyPartitionOnce(partition);
    } catch (error) {
      if (!lockNotAvailable(error) || attempt >= TRIES) throw error;
      await pause();
    }
  }
}

const LOCK_WAIT = "200ms";
const TRIES = 20;

/** A month emptied: its points per vehicle, and how long its steps took (milliseconds). */
type Emptied = {
  perVehicle: { vehicle_id: number; n: number }[];
  countersMs: number;
  detachMs: number;
  commitMs: number;
};

async function emptyPartitionOnce(partition: MonthPartition): Promise<Emptied> {
  const table = sql.identifier(partition.name);
  // The month's counter rows (vehicle_key_stats by month, the partition's month): its points per vehicle and key.
  const month = partition.from.toISOString().slice(0, 10);
  const ms = (from: number) => Math.round(performance.now() - from);
  let done = 0;
  const emptied = await db().transaction(async (tx) => {
    await tx.execute(sql`select set_config('lock_timeout', ${LOCK_WAIT}, true)`);
    // No point of the month is written while it is held, so the month's counters are final until the commit.
    await tx.execute(sql`lock table ${table} in share mode`);
    const countersFrom = performance.now();
    // The counter rows are locked in ingest's order (the vehicle's, then its keys'), each in vehicle and
    // key order: two workers' runs wait for each other rather than deadlock.
    await tx.execute(
      sql`select 1 from vehicle_data_stats
        where vehicle_id in (select vehicle_id from vehicle_key_stats where month = ${month}) order by vehicle_id for update`,
    );
    await tx.execute(sql`select 1 from vehicle_key_stats where month = ${month} order by vehicle_id, key for update`);
    const gone = (await tx.execute(sql`
      with gone as (delete from vehicle_key_stats where month = ${month} returning vehicle_id, data_points),
           v as (select vehicle_id, sum(data_points) as n from gone group by vehicle_id),
           u as (update vehicle_data_stats s set data_points = s.data_points - v.n from v where s.vehicle_id = v.vehicle_id)
      select vehicle_id, n::float8 as n from v where n > 0 order by vehicle_id`)) as unknown as {
      vehicle_id: number;
      n: number;
    }[];
    // A key whose newest point is in this month has no point after it: its copy goes with the month.
    await tx.execute(
      sql`delete from latest_data_points
        where recorded_at >= ${partition.from.toISOString()}::timestamptz and recorded_at < ${partition.to.toISOString()}::timestamptz`,
    );
    const detachFrom = performance.now();
    await detachPartition(tx, "data_points", partition);
    done = performance.now();
    return { perVehicle: gone, countersMs: Math.round(detachFrom - countersFrom), detachMs: ms(detachFrom) };
  });
  return { ...emptied, commitMs: ms(done) };
}

/** Way 2: the points older than the cutoff that no dropped month held. */
async function deleteInBatches({
  cutoff,
  batch,
  pause,
  vehicles,
}: {
  cutoff: Date;
  batch: number;
  pause: () => Promise<void>;
  vehicles: Set<number>;
}): Promise<number> {
  const before = cutoff.toISOString();
  let deleted = 0;
  let after = 0;
  for (;;) {
    // Only vehicles that have points, a page of ids at a time.
    const page = (await db().execute(
      sql`select vehicle_id as id from vehicle_data_stats where vehicle_id > ${after} and data_points > 0 order by vehicle_id limit 500`,
    )) as unknown as { id: number }[];
    if (page.length === 0) break;
    for (const { id } of page) {
      for (;;) {
        // A point is named by its whole key (id and recorded_at), and both statements bound
        // recorded_at: PostgreSQL then reads only the partitions older than the cutoff.
        const [row] = (await db().execute(sql`
          with d as (
            delete from data_points where recorded_at < ${before}::timestamptz and (id, recorded_at) in (
              select id, recorded_at from data_points where vehicle_id = ${id} and recorded_at < ${before}::timestamptz
               limit ${batch} for update skip locked)
            returning key, date_trunc('month', recorded_at at time zone 'UTC')::date as month),
          k as (select key, month, count(*) as n from d group by key, month),
          ks as (update vehicle_key_stats s set data_points = s.data_points - k.n from k where s.vehicle_id = ${id} and s.key = k.key and s.month = k.month),
          vs as (update vehicle_data_stats set data_points = data_points - (select count(*) from d) where vehicle_id = ${id} and exists (select 1 from d))
          select count(*)::int as n from d`)) as unknown as { n: number }[];
        const n = row?.n ?? 0;
        deleted += n;
        if (n > 0) vehicles.add(id);
        if (n < batch) break;
        await pause();
      }
      // A key whose newest point was older than the cutoff has none left: its copy goes too. A statement of its
      // own, after the vehicle's batches: it locks only these rows, so it cannot deadlock with an ingest write,
      // and one that wrote a newer point meanwhile keeps its copy (the row is checked again after the wait).
      await db().execute(
        sql`delete from latest_data_points where vehicle_id = ${id} and recorded_at < ${before}::timestamptz`,
      );
    }
    after = page[page.length - 1]!.id;
  }
  return deleted;
}
