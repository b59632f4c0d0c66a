import { and, asc, count, desc, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import { db, rawSql } from "@/db/client";
import type { Fragment, Sql } from "@/db/fragments";
import { dataPoints, dataSets, trips, vehicleDataStats, vehicleKeyStats } from "@/db/schema";
import type { Page } from "@/common/http/paging";
import { translateValue } from "./keys";
import type { DataPointOut, DataSetOut } from "./schemas";
import { serializeDataSet } from "./serialize";

// Reads of device data, in drizzle but for the trips' data (below). Every list is served by an index that starts with the
// vehicle and ends with the sort key; totals come from the counters ingest keeps.

type Order = "asc" | "desc";

/** Data sets with their points (datum in posted order), in the order of `ids` given by the caller's sort. */
async function withPoints(sets: (typeof dataSets.$inferSelect)[]) {
  if (sets.length === 0) return [];
  const points = await db()
    .select()
    .from(dataPoints)
    .where(
      inArray(
        dataPoints.dataSetId,
        sets.map((s) => s.id),
      ),
    )
    .orderBy(asc(dataPoints.dataSetId), asc(dataPoints.position));
  return attachPoints(sets, points);
}

function attachPoints(sets: (typeof dataSets.$inferSelect)[], points: (typeof dataPoints.$inferSelect)[]) {
  const bySet = new Map<number, (typeof points)[number][]>();
  for (const p of points) {
    const list = bySet.get(p.dataSetId);
    if (list) list.push(p);
    else bySet.set(p.dataSetId, [p]);
  }
  return sets.map((s) => serializeDataSet(s, bySet.get(s.id) ?? []));
}

export async function readDataSets({ vehicleId, ids }: { vehicleId: number; ids: number[] }) {
  const sets = await db()
    .select()
    .from(dataSets)
    .where(and(eq(dataSets.vehicleId, vehicleId), inArray(dataSets.id, ids)))
    .orderBy(asc(dataSets.recordedAt));
  return withPoints(sets);
}

export async function listDataSets({ vehicleId, page, order }: { vehicleId: number; page: Page; order: Order }) {
  const [sets, [stats]] = await Promise.all([
    db()
      .select()
      .from(dataSets)
      .where(eq(dataSets.vehicleId, vehicleId))
      .orderBy(order === "asc" ? asc(dataSets.recordedAt) : desc(dataSets.recordedAt))
      .limit(page.limit)
      .offset(page.offset),
    db().select({ n: vehicleDataStats.dataSets }).from(vehicleDataStats).where(eq(vehicleDataStats.vehicleId, vehicleId)),
  ]);
  return { items: await withPoints(sets), total: stats?.n ?? 0 };
}

export async function findDataSet({ vehicleId, id }: { vehicleId: number; id: number }) {
  const [set] = await readDataSets({ vehicleId, ids: [id] });
  return set ?? null;
}

/**
 * The data sets of these trips, newest first, grouped by trip, serialized. A page of 50 trips
 * with their data is tens of thousands of points (9 MB for 50 trips of 333 sets, bench:reads), so
 * this goes straight through postgres.js with the wire DateTime made by PostgreSQL: drizzle's
 * per-row mapping, a Date per timestamp and formatting them back were most of that answer's time.
 */
export async function dataSetsOfTrips(tripIds: number[]): Promise<Map<number, DataSetOut[]>> {
  const byTrip = new Map<number, DataSetOut[]>();
  if (tripIds.length === 0) return byTrip;
  const sql = rawSql();
  const ids = sql.array(tripIds);
  // Points are fetched through their sets' trip rather than by a list of (possibly thousands of)
  // set ids, which PostgreSQL would answer with a scan. The laterals (kept apart by offset 0) hold
  // every plan to index probes: once prepared and planned generically, a plain join of the two
  // tables became a hash join over a sequential scan of all data points (290 ms against 4 ms on a
  // vehicle with a million points, seen in bench:reads).
  const [sets, points] = await Promise.all([
    sql<SetWire[]>`select s.id, s.vehicle_id, s.trip_id, ${wireTime(sql, sql`s.recorded_at`)} as at, s.ignition_status, s.device_id, s.vin
         from data_sets s where s.trip_id = any(${ids}::bigint[]) order by s.recorded_at desc`,
    sql<PointWire[]>`select p.id, p.data_set_id, ${wireTime(sql, sql`p.recorded_at`)} as at, p.key, p.value
         from unnest(${ids}::bigint[]) as t(id)
         cross join lateral (select s.id from data_sets s where s.trip_id = t.id offset 0) s
         cross join lateral (select * from data_points p where p.data_set_id = s.id offset 0) p
        order by p.data_set_id, p.position`,
  ]);
  const datumOf = new Map<string, DataPointOut[]>();
  for (const p of points) {
    const datum: DataPointOut = { id: Number(p.id), dataSetId: Number(p.data_set_id), timestamp: p.at, key: p.key, value: p.value, translatedValue: translateValue(p.key, p.value) };
    const list = datumOf.get(p.data_set_id);
    if (list) list.push(datum);
    else datumOf.set(p.data_set_id, [datum]);
  }
  for (const s of sets) {
    const tripId = Number(s.trip_id);
    const set: DataSetOut = { id: Number(s.id), vehicleId: s.vehicle_id, tripId, timestamp: s.at, ignitionStatus: s.ignition_status as DataSetOut["ignitionStatus"], deviceId: s.device_id, vin: s.vin, datum: datumOf.get(s.id) ?? [] };
    const list = byTrip.get(tripId);
    if (list) list.push(set);
    else byTrip.set(tripId, [set]);
  }
  return byTrip;
}

// int8 columns arrive as text from postgres.js.
type SetWire = { id: string; vehicle_id: number; trip_id: string; at: string; ignition_status: string; device_id: string | null; vin: string | null };
type PointWire = { id: string; data_set_id: string; at: string; key: string; value: string };

/** The wire DateTime (docs/api.md#datetime, as formatDateTime) of a timestamptz column, made by PostgreSQL. */
const wireTime = (sql: Sql, column: Fragment) => sql`to_char(${column} at time zone 'UTC', 'YYYYMMDD"T"HH24MISS"+0000"')`;

export async function listTrips({ vehicleId, startedAfter, startedBefore, page, order }: { vehicleId: number; startedAfter?: Date; startedBefore?: Date; page: Page; order: Order }) {
  const where = and(
    eq(trips.vehicleId, vehicleId),
    startedAfter ? gte(trips.startTime, startedAfter) : undefined,
    startedBefore ? lte(trips.startTime, startedBefore) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db()
      .select()
      .from(trips)
      .where(where)
      .orderBy(order === "asc" ? asc(trips.startTime) : desc(trips.startTime))
      .limit(page.limit)
      .offset(page.offset),
    db().select({ n: count() }).from(trips).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function findTrip({ vehicleId, tripId }: { vehicleId: number; tripId: number }) {
  const [row] = await db()
    .select()
    .from(trips)
    .where(and(eq(trips.vehicleId, vehicleId), eq(trips.id, tripId)))
    .limit(1);
  return row ?? null;
}

export async function listDataPoints({ vehicleId, key, page, order }: { vehicleId: number; key?: string; page: Page; order: Order }) {
  const where = and(eq(dataPoints.vehicleId, vehicleId), key ? eq(dataPoints.key, key) : undefined);
  const byTime = order === "asc" ? [asc(dataPoints.recordedAt), asc(dataPoints.id)] : [desc(dataPoints.recordedAt), desc(dataPoints.id)];
  const total: Promise<{ n: number }[]> = key
    ? db()
        .select({ n: vehicleKeyStats.dataPoints })
        .from(vehicleKeyStats)
        .where(and(eq(vehicleKeyStats.vehicleId, vehicleId), eq(vehicleKeyStats.key, key)))
    : db().select({ n: vehicleDataStats.dataPoints }).from(vehicleDataStats).where(eq(vehicleDataStats.vehicleId, vehicleId));
  const [rows, [stats]] = await Promise.all([
    db()
      .select()
      .from(dataPoints)
      .where(where)
      .orderBy(...byTime)
      .limit(page.limit)
      .offset(page.offset),
    total,
  ]);
  return { rows, total: stats?.n ?? 0 };
}

/** The newest point of each key (or of one key). One index probe per key, via the key counters. */
export async function latestPerKey({ vehicleId, key }: { vehicleId: number; key?: string }) {
  const keyFilter: SQL = key ? sql`and k.key = ${key}` : sql``;
  const rows = await db().execute<{ id: string }>(sql`
    select p.id from ${vehicleKeyStats} k
      cross join lateral (select id from ${dataPoints} where vehicle_id = k.vehicle_id and key = k.key order by recorded_at desc, id desc limit 1) p
     where k.vehicle_id = ${vehicleId} ${keyFilter}`);
  const ids = rows.map((r) => Number(r.id));
  if (ids.length === 0) return [];
  return db().select().from(dataPoints).where(inArray(dataPoints.id, ids)).orderBy(asc(dataPoints.key));
}
