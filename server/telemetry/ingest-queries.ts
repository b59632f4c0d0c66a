import { epochMs as ms, runRaw as run, type Tx } from "@/db/raw";
import type { Environment } from "@/db/schema";
import type { OpenTrip, VehicleState } from "./segmentation";

// The write path of data ingest, in postgres.js rather than drizzle: a batch of 500 data sets
// becomes one multi-row statement per table through unnest(), the form measured here at about
// 112,000 rows/s (../shared/NOTES.md), against a few thousand for row-by-row inserts.

const date = (value: number | null) => (value === null ? null : new Date(value));
const iso = (d: Date) => d.toISOString();

export async function lockVehicleState(tx: Tx, vehicleId: number): Promise<VehicleState | null> {
  const [row] = await run(tx, 
    `select mileage, running, vin, ${ms("last_running_at")} as last_running_at, ${ms("last_data_at")} as last_data_at,
            ${ms("last_waypoint_at")} as last_waypoint_at, last_latitude, last_longitude
       from vehicles where id = $1 for update`,
    [vehicleId],
  );
  if (!row) return null;
  return {
    mileage: Number(row.mileage),
    running: row.running,
    vin: row.vin,
    lastRunningAt: date(row.last_running_at),
    lastDataAt: date(row.last_data_at),
    lastWaypoint:
      row.last_waypoint_at !== null && row.last_latitude !== null
        ? { at: new Date(row.last_waypoint_at), latitude: Number(row.last_latitude), longitude: Number(row.last_longitude) }
        : null,
  };
}

export async function findOpenTrip(tx: Tx, vehicleId: number): Promise<OpenTrip | null> {
  const [row] = await run(tx, 
    `select id, ${ms("start_time")} as start_time, ${ms("last_data_at")} as last_data_at, mileage,
            ${ms("start_waypoint_at")} as start_at, start_latitude, start_longitude,
            ${ms("end_waypoint_at")} as end_at, end_latitude, end_longitude
       from trips where vehicle_id = $1 and end_time is null order by start_time desc limit 1`,
    [vehicleId],
  );
  if (!row) return null;
  const point = (at: number | null, lat: number | null, lon: number | null) => (at === null || lat === null || lon === null ? null : { at: new Date(at), latitude: Number(lat), longitude: Number(lon) });
  return {
    ref: Number(row.id),
    startTime: new Date(row.start_time),
    lastDataAt: new Date(row.last_data_at),
    endTime: null,
    mileage: row.mileage === null ? null : Number(row.mileage),
    start: point(row.start_at, row.start_latitude, row.start_longitude),
    end: point(row.end_at, row.end_latitude, row.end_longitude),
  };
}

/** The ids of the data sets the vehicle already has at these timestamps, keyed by epoch ms. */
export async function existingDataSets(tx: Tx, vehicleId: number, timestamps: Date[]): Promise<Map<number, number>> {
  // One probe of data_sets_vehicle_time_key per timestamp (a subquery per row cannot be planned
  // any other way). `recorded_at = any($2::timestamptz[])` was planned, once generic, as a scan of
  // all the vehicle's data sets re-casting the whole text[] array for each row: 1.3 s for a batch
  // of 500 on a vehicle with 5,000 data sets, and growing with its history (bench/ingest.ts).
  const rows = await run(
    tx,
    `select ${ms("t.at")} as at, (select id from data_sets where vehicle_id = $1 and recorded_at = t.at) as id from unnest($2::timestamptz[]) as t(at)`,
    [vehicleId, tx.array(timestamps.map(iso))],
  );
  return new Map(rows.flatMap((r) => (r.id === null ? [] : [[Number(r.at), Number(r.id)] as const])));
}

const tripColumns = (t: OpenTrip) => [
  iso(t.startTime),
  t.endTime ? iso(t.endTime) : null,
  iso(t.lastDataAt),
  t.mileage,
  t.start ? iso(t.start.at) : null,
  t.start?.latitude ?? null,
  t.start?.longitude ?? null,
  t.end ? iso(t.end.at) : null,
  t.end?.latitude ?? null,
  t.end?.longitude ?? null,
];

/** Inserts new trips in one statement. */
export async function insertTrips(tx: Tx, environment: Environment, vehicleId: number, trips: OpenTrip[]): Promise<void> {
  if (trips.length === 0) return;
  const column = (i: number) => tx.array(trips.map((t) => tripColumns(t)[i] as string | number | null));
  await run(
    tx,
    `insert into trips (environment, vehicle_id, start_time, end_time, last_data_at, mileage, start_waypoint_at, start_latitude, start_longitude, end_waypoint_at, end_latitude, end_longitude)
     select $1, $2, t.* from unnest($3::timestamptz[], $4::timestamptz[], $5::timestamptz[], $6::float8[], $7::timestamptz[], $8::float8[], $9::float8[],
                                    $10::timestamptz[], $11::float8[], $12::float8[])
       as t(start_time, end_time, last_data_at, mileage, start_at, start_lat, start_lon, end_at, end_lat, end_lon)`,
    [environment, vehicleId, ...Array.from({ length: 10 }, (_, i) => column(i))],
  );
}

export async function updateTrip(tx: Tx, trip: OpenTrip): Promise<void> {
  await run(tx, 
    `update trips set start_time = $2, end_time = $3, last_data_at = $4, mileage = $5, start_waypoint_at = $6, start_latitude = $7,
       start_longitude = $8, end_waypoint_at = $9, end_latitude = $10, end_longitude = $11 where id = $1`,
    [trip.ref, ...tripColumns(trip)],
  );
}

/**
 * tripId names an existing trip; tripStart a trip inserted earlier in the same transaction (trips
 * start at one of the vehicle's data sets, so the start time is unique); late sets take the trip
 * whose span holds them. Resolving these in SQL lets every write of a batch go out pipelined,
 * without waiting for ids.
 */
export type NewDataSet = { recordedAt: string; ignitionStatus: string; tripId: number | null; tripStart: string | null; late: boolean; deviceId: string | null; vin: string | null };

export async function insertDataSets(tx: Tx, environment: Environment, vehicleId: number, sets: NewDataSet[]) {
  const rows = await run(
    tx,
    `insert into data_sets (environment, vehicle_id, recorded_at, ignition_status, trip_id, device_id, vin)
     select $1, $2, s.at, s.ignition,
            case when s.late then (select id from trips where vehicle_id = $2 and start_time <= s.at and coalesce(end_time, 'infinity') >= s.at
                                    order by start_time desc limit 1)
                 when s.trip_start is not null then (select id from trips where vehicle_id = $2 and start_time = s.trip_start order by id desc limit 1)
                 else s.trip end,
            s.device, s.vin
       from unnest($3::timestamptz[], $4::text[], $5::bigint[], $6::timestamptz[], $7::boolean[], $8::text[], $9::text[])
         with ordinality as s(at, ignition, trip, trip_start, late, device, vin, ord)
      order by s.ord
     returning id, ${ms("recorded_at")} as at, trip_id`,
    [
      environment,
      vehicleId,
      tx.array(sets.map((s) => s.recordedAt)),
      tx.array(sets.map((s) => s.ignitionStatus)),
      tx.array(sets.map((s) => (s.tripId === null ? null : String(s.tripId)))),
      tx.array(sets.map((s) => s.tripStart)),
      tx.array(sets.map((s) => s.late)),
      tx.array(sets.map((s) => s.deviceId)),
      tx.array(sets.map((s) => s.vin)),
    ],
  );
  return rows.map((r) => ({ id: Number(r.id), at: Number(r.at), tripId: r.trip_id === null ? null : Number(r.trip_id) }));
}

/** A point names its data set by the set's timestamp, inserted earlier in the same transaction. */
export type NewDataPoint = { setAt: string; position: number; recordedAt: string; key: string; value: string };

export async function insertDataPoints(tx: Tx, vehicleId: number, points: NewDataPoint[]): Promise<{ id: number; dataSetId: number; position: number }[]> {
  if (points.length === 0) return [];
  const rows = await run(
    tx,
    `insert into data_points (vehicle_id, data_set_id, position, recorded_at, key, value)
     select $1, d.id, p.pos, p.at, p.key, p.value
       from unnest($2::timestamptz[], $3::smallint[], $4::timestamptz[], $5::text[], $6::text[]) with ordinality as p(set_at, pos, at, key, value, ord)
       join data_sets d on d.vehicle_id = $1 and d.recorded_at = p.set_at
      order by p.ord
     returning id, data_set_id, position`,
    [
      vehicleId,
      tx.array(points.map((p) => p.setAt)),
      tx.array(points.map((p) => String(p.position))),
      tx.array(points.map((p) => p.recordedAt)),
      tx.array(points.map((p) => p.key)),
      tx.array(points.map((p) => p.value)),
    ],
  );
  return rows.map((r) => ({ id: Number(r.id), dataSetId: Number(r.data_set_id), position: Number(r.position) }));
}

export async function saveVehicleState(tx: Tx, vehicleId: number, s: VehicleState, decoded: { year: string | null; make: string | null; model: string | null } | null): Promise<void> {
  await run(tx, 
    `update vehicles set mileage = $2, running = $3, last_running_at = $4, last_data_at = $5, last_waypoint_at = $6, last_latitude = $7,
       last_longitude = $8, vin = $9${decoded ? ", year = $10, make = $11, model = $12" : ""} where id = $1`,
    [
      vehicleId,
      s.mileage,
      s.running,
      s.lastRunningAt ? iso(s.lastRunningAt) : null,
      s.lastDataAt ? iso(s.lastDataAt) : null,
      s.lastWaypoint ? iso(s.lastWaypoint.at) : null,
      s.lastWaypoint?.latitude ?? null,
      s.lastWaypoint?.longitude ?? null,
      s.vin,
      ...(decoded ? [decoded.year, decoded.make, decoded.model] : []),
    ],
  );
}

/** Keeps the per-vehicle and per-key counts that list totals read. */
export async function bumpStats(tx: Tx, vehicleId: number, sets: number, keyCounts: Map<string, number>): Promise<void> {
  const points = [...keyCounts.values()].reduce((a, b) => a + b, 0);
  const totals = run(tx, 
    `insert into vehicle_data_stats (vehicle_id, data_sets, data_points) values ($1, $2, $3)
     on conflict (vehicle_id) do update set data_sets = vehicle_data_stats.data_sets + excluded.data_sets,
       data_points = vehicle_data_stats.data_points + excluded.data_points`,
    [vehicleId, sets, points],
  );
  if (keyCounts.size === 0) return void (await totals);
  const perKey = run(tx, 
    `insert into vehicle_key_stats (vehicle_id, key, data_points)
     select $1, k.key, k.n from unnest($2::text[], $3::bigint[]) as k(key, n)
     on conflict (vehicle_id, key) do update set data_points = vehicle_key_stats.data_points + excluded.data_points`,
    [vehicleId, tx.array([...keyCounts.keys()]), tx.array([...keyCounts.values()].map(String))],
  );
  await Promise.all([totals, perKey]);
}
