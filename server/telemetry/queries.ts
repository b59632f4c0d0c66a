import { and, asc, count, desc, eq, gte, inArray, lt, lte, sql } from "drizzle-orm";
import { db, type Database } from "@/db/client";
import { onReplica } from "@/db/replica";
import { dataPoints, dataSets, latestDataPoints, trips, vehicleDataStats, vehicleKeyStats } from "@/db/schema";
import type { Page } from "@/common/http/paging";
import type { LocationPrecision } from "@/common/oauth/grant-scope";
import { serializeDataSet } from "./serialize";

// Reads of device data, in drizzle (the trips' data sets are read in trip-data-sets.ts). Every list is served by an index that starts with the
// vehicle and ends with the sort key; totals come from the counters ingest keeps.

type Order = "asc" | "desc";

/** Data sets with their points (datum in posted order), in the order of `ids` given by the caller's sort. */
async function withPoints(
  sets: (typeof dataSets.$inferSelect)[],
  precision: LocationPrecision,
  database: Database = db(),
) {
  if (sets.length === 0) return [];
  const points = await database
    .select()
    .from(dataPoints)
    .where(
      and(
        inArray(
          dataPoints.dataSetId,
          sets.map((s) => s.id),
        ),
        withinSpans(sets),
      ),
    )
    .orderBy(asc(dataPoints.dataSetId), asc(dataPoints.position));
  return attachPoints(sets, points, precision);
}

/**
 * The sets' points lie within the sets' spans (data_sets.points_from, points_to, server/telemetry/point-span.ts):
 * bounding the read by the earliest and latest of them lets PostgreSQL read only those months. No bound
 * when a set's span is not known.
 */
function withinSpans(sets: (typeof dataSets.$inferSelect)[]) {
  let from = Infinity;
  let to = -Infinity;
  for (const s of sets) {
    if (s.pointsFrom === null || s.pointsTo === null) return undefined;
    from = Math.min(from, s.pointsFrom.getTime());
    to = Math.max(to, s.pointsTo.getTime());
  }
  // A Date holds milliseconds, the column microseconds: the bound is the millisecond after the latest.
  return and(gte(dataPoints.recordedAt, new Date(from)), lt(dataPoints.recordedAt, new Date(to + 1)));
}

function attachPoints(
  sets: (typeof dataSets.$inferSelect)[],
  points: (typeof dataPoints.$inferSelect)[],
  precision: LocationPrecision,
) {
  const bySet = new Map<number, (typeof points)[number][]>();
  for (const p of points) {
    const list = bySet.get(p.dataSetId);
    if (list) list.push(p);
    else bySet.set(p.dataSetId, [p]);
  }
  return sets.map((s) => serializeDataSet(s, bySet.get(s.id) ?? [], precision));
}

export async function readDataSets({
  vehicleId,
  ids,
  precision,
}: {
  vehicleId: number;
  ids: number[];
  precision: LocationPrecision;
}) {
  const sets = await db()
    .select()
    .from(dataSets)
    .where(and(eq(dataSets.vehicleId, vehicleId), inArray(dataSets.id, ids)))
    .orderBy(asc(dataSets.recordedAt));
  return withPoints(sets, precision);
}

/** A page of a vehicle's data sets with their points: a heavy read, on the replica when there is one (db/replica.ts). */
export async function listDataSets({
  vehicleId,
  page,
  order,
  precision,
}: {
  vehicleId: number;
  page: Page;
  order: Order;
  precision: LocationPrecision;
}) {
  return onReplica(async ({ db }) => {
    const [sets, [stats]] = await Promise.all([
      db
        .select()
        .from(dataSets)
        .where(eq(dataSets.vehicleId, vehicleId))
        .orderBy(order === "asc" ? asc(dataSets.recordedAt) : desc(dataSets.recordedAt))
        .limit(page.limit)
        .offset(page.offset),
      db
        .select({ n: vehicleDataStats.dataSets })
        .from(vehicleDataStats)
        .where(eq(vehicleDataStats.vehicleId, vehicleId)),
    ]);
    return { items: await withPoints(sets, precision, db), total: stats?.n ?? 0 };
  });
}

export async function findDataSet({
  vehicleId,
  id,
  precision,
}: {
  vehicleId: number;
  id: number;
  precision: LocationPrecision;
}) {
  const [set] = await readDataSets({ vehicleId, ids: [id], precision });
  return set ?? null;
}

export async function listTrips({
  vehicleId,
  startedAfter,
  startedBefore,
  page,
  order,
}: {
  vehicleId: number;
  startedAfter?: Date;
  startedBefore?: Date;
  page: Page;
  order: Order;
}) {
  const where = and(
    eq(trips.vehicleId, vehicleId),
    startedAfter ? gte(trips.startTime, startedAfter) : undefined,
    startedBefore ? lte(trips.startTime, startedBefore) : undefined,
  );
  // A heavy read (a vehicle's trips are counted): on the replica when there is one.
  return onReplica(async ({ db }) => {
    const [rows, [total]] = await Promise.all([
      db
        .select()
        .from(trips)
        .where(where)
        .orderBy(order === "asc" ? asc(trips.startTime) : desc(trips.startTime))
        .limit(page.limit)
        .offset(page.offset),
      db.select({ n: count() }).from(trips).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  });
}

export async function findTrip({ vehicleId, tripId }: { vehicleId: number; tripId: number }) {
  const [row] = await db()
    .select()
    .from(trips)
    .where(and(eq(trips.vehicleId, vehicleId), eq(trips.id, tripId)))
    .limit(1);
  return row ?? null;
}

export async function listDataPoints({
  vehicleId,
  key,
  page,
  order,
}: {
  vehicleId: number;
  key?: string;
  page: Page;
  order: Order;
}) {
  const where = and(eq(dataPoints.vehicleId, vehicleId), key ? eq(dataPoints.key, key) : undefined);
  const byTime =
    order === "asc"
      ? [asc(dataPoints.recordedAt), asc(dataPoints.id)]
      : [desc(dataPoints.recordedAt), desc(dataPoints.id)];
  // A heavy read: on the replica when there is one (db/replica.ts).
  return onReplica(async ({ db }) => {
    const total: Promise<{ n: number }[]> = key
      ? db
          // The key's months (docs/partitions.md#retention): a few rows of one index range.
          .select({ n: sql<number>`coalesce(sum(${vehicleKeyStats.dataPoints}), 0)::float8` })
          .from(vehicleKeyStats)
          .where(and(eq(vehicleKeyStats.vehicleId, vehicleId), eq(vehicleKeyStats.key, key)))
      : db
          .select({ n: vehicleDataStats.dataPoints })
          .from(vehicleDataStats)
          .where(eq(vehicleDataStats.vehicleId, vehicleId));
    const [rows, [stats]] = await Promise.all([
      db
        .select()
        .from(dataPoints)
        .where(where)
        .orderBy(...byTime)
        .limit(page.limit)
        .offset(page.offset),
      total,
    ]);
    return { rows, total: stats?.n ?? 0 };
  });
}

/**
 * The newest point of each key (or of one key), by key: the copies ingest keeps (latest_data_points), one row
 * a key, with no read of data_points (docs/partitions.md#the-newest-point-of-each-key).
 */
export async function latestPerKey({ vehicleId, key }: { vehicleId: number; key?: string }) {
  const rows = await db()
    .select()
    .from(latestDataPoints)
    .where(and(eq(latestDataPoints.vehicleId, vehicleId), key ? eq(latestDataPoints.key, key) : undefined))
    .orderBy(asc(latestDataPoints.key));
  return rows.map(({ pointId, ...point }) => ({ id: pointId, ...point }));
}
