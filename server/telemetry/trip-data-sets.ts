import { onReplica } from "@/db/replica";
import type { Fragment, Sql } from "@/db/fragments";
import type { LocationPrecision } from "@/common/oauth/grant-scope";
import { translateValue } from "@/common/telemetry/keys";
import { pointsWithin } from "./point-span";
import { pointAt } from "./serialize";
import type { DataPointOut, DataSetOut } from "./schemas";

// A hot read in postgres.js tagged templates (docs/architecture.md#reaching-the-database).

/**
 * The data sets of these trips, newest first, grouped by trip, serialized. A page of 50 trips
 * with their data is tens of thousands of points (9 MB for 50 trips of 333 sets, bench:reads), so
 * this goes straight through postgres.js with the wire DateTime made by PostgreSQL: drizzle's
 * per-row mapping, a Date per timestamp and formatting them back were most of that answer's time.
 */
export async function dataSetsOfTrips(
  tripIds: number[],
  precision: LocationPrecision,
): Promise<Map<number, DataSetOut[]>> {
  const byTrip = new Map<number, DataSetOut[]>();
  if (tripIds.length === 0) return byTrip;
  // A heavy read: on the replica when there is one (db/replica.ts).
  const [sets, points] = await onReplica(({ sql }) => readTrips(sql, tripIds));
  const datumOf = new Map<string, DataPointOut[]>();
  for (const p of points) {
    const datum: DataPointOut = pointAt(
      {
        id: Number(p.id),
        dataSetId: Number(p.data_set_id),
        timestamp: p.at,
        key: p.key,
        value: p.value,
        translatedValue: translateValue(p.key, p.value),
      },
      precision,
    );
    const list = datumOf.get(p.data_set_id);
    if (list) list.push(datum);
    else datumOf.set(p.data_set_id, [datum]);
  }
  for (const s of sets) {
    const tripId = Number(s.trip_id);
    const set: DataSetOut = {
      id: Number(s.id),
      vehicleId: s.vehicle_id,
      tripId,
      timestamp: s.at,
      ignitionStatus: s.ignition_status as DataSetOut["ignitionStatus"],
      deviceId: s.device_id,
      vin: s.vin,
      datum: datumOf.get(s.id) ?? [],
    };
    const list = byTrip.get(tripId);
    if (list) list.push(set);
    else byTrip.set(tripId, [set]);
  }
  return byTrip;
}

// int8 columns arrive as text from postgres.js.
type SetWire = {
  id: string;
  vehicle_id: number;
  trip_id: string;
  at: string;
  ignition_status: string;
  device_id: string | null;
  vin: string | null;
};
type PointWire = { id: string; data_set_id: string; at: string; key: string; value: string };

/** The wire DateTime (docs/api.md#datetime, as formatDateTime) of a timestamptz column, made by PostgreSQL. */
const wireTime = (sql: Sql, column: Fragment) =>
  sql`to_char(${column} at time zone 'UTC', 'YYYYMMDD"T"HH24MISS"+0000"')`;

/** The sets and points of these trips, as the wire needs them. */
function readTrips(sql: Sql, tripIds: number[]): Promise<[SetWire[], PointWire[]]> {
  // Points are fetched through their sets' trip rather than by a list of (possibly thousands of)
  // set ids, which PostgreSQL would answer with a scan. The laterals (kept apart by offset 0) hold
  // every plan to index probes: once prepared and planned generically, a plain join of the two
  // tables became a hash join over a sequential scan of all data points (290 ms against 4 ms on a
  // vehicle with a million points, seen in bench:reads). Each set's probe is bounded by the span of
  // its points' times, so it reads only the months that span covers (pointsWithin).
  return Promise.all([
    sql<
      SetWire[]
    >`select s.id, s.vehicle_id, s.trip_id, ${wireTime(sql, sql`s.recorded_at`)} as at, s.ignition_status, s.device_id, s.vin
         from data_sets s where s.trip_id = any(${tripIds}::bigint[]) order by s.recorded_at desc`,
    sql<PointWire[]>`select p.id, p.data_set_id, ${wireTime(sql, sql`p.recorded_at`)} as at, p.key, p.value
         from unnest(${tripIds}::bigint[]) as t(id)
         cross join lateral (select s.id, s.points_from, s.points_to from data_sets s where s.trip_id = t.id offset 0) s
         cross join lateral (select * from data_points p where p.data_set_id = s.id and ${pointsWithin(sql)} offset 0) p
        order by p.data_set_id, p.position`,
  ]);
}
