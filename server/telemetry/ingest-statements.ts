import type postgres from "postgres";
import { epochMs as ms, Params, runRaw } from "@/db/raw";
import type { Environment } from "@/db/schema";
import type { AccountScope } from "@/server/accounts/queries";
import type { LiveSubscription } from "@/server/notifications/evaluate";
import { liveSubscriptionsColumn, liveSubscriptionsVersion, notificationWrites, toLiveSubscriptions, type NotificationWrite } from "@/server/notifications/ingest-queries";
import { tokenStillWorks } from "@/server/oauth/bearer";
import { vehicleIdOf } from "@/server/vehicles/queries";
import type { OpenTrip, VehicleState } from "./segmentation";

// Ingest's two statements, in postgres.js rather than drizzle. Each costs a round trip and, in
// node, about 70 µs of CPU under load (measured with postgres.js at 32 connections here), which
// is why a data set is one read and one write rather than a dozen small statements:
// - the read gives the vehicle (visible to the caller), its state and version, its open trip,
//   the data sets it already has at the posted timestamps, and the subscriptions that see it;
// - the write is one statement of data-modifying CTEs (the vehicle's state, trips, data sets,
//   data points, counters, notifications), so it is atomic on its own, and a batch of 500 data
//   sets is still one multi-row insert per table through unnest() (about 112,000 rows/s
//   on a 2-core machine beside PostgreSQL). It writes only if the vehicle row is still the version the read saw
//   (its xmin, which every update of the row changes); otherwise it writes nothing and says so.
//   One statement may carry several vehicles' writes (write-groups.ts): every row it writes
//   names its vehicle, and a vehicle's rows are written only if its own check held.

export type Sql = postgres.Sql | postgres.TransactionSql;

export type IngestRead = {
  vehicle: { id: number; accountId: number };
  /** The vehicle row's xmin when read. */
  version: string;
  state: VehicleState;
  openTrip: OpenTrip | null;
  /** The ids of the data sets the vehicle already has at the posted timestamps, keyed by epoch ms. */
  existing: Map<number, number>;
  subscriptions: LiveSubscription[];
  /** Which subscriptions those are, as liveSubscriptionsVersion tells. */
  subscriptionsVersion: string;
};

const date = (value: number | null) => (value === null ? null : new Date(value));
const iso = (d: Date) => d.toISOString();

/**
 * The caller's accounts, for the vehicle alias `v`: a user token's own account, or every account
 * that granted a client token's app access. `account` and `app` are SQL expressions (parameters,
 * or columns of the write's rows), one of them null.
 */
function ownerCondition(account: string, app: string): string {
  return `(case when ${account}::int is not null then v.account_id = ${account}::int
               else v.account_id in (select account_id from account_grants where app_id = ${app}::int and revoked_at is null) end)`;
}

/**
 * A vehicle by numeric vehicleId or device serial; a numeric text that is both prefers the
 * vehicleId (as server/vehicles/queries.ts findVehicle). Written as `id in (…)` so that both
 * candidates are primary-key probes.
 */
function vehicleMatch(p: Params, environment: Environment, ref: string): { where: string; order: string } {
  const bySerial = `(select d.vehicle_id from devices d where d.environment = ${p.add(environment)} and d.serial = ${p.add(ref)})`;
  const id = vehicleIdOf(ref);
  if (id === null) return { where: `v.id = ${bySerial}`, order: "" };
  const idParam = p.add(id);
  return { where: `v.id in (${idParam}, ${bySerial})`, order: `order by (v.id = ${idParam}) desc` };
}

type ReadRow = {
  id: number;
  account_id: number;
  version: string;
  /** numeric, as text. */
  mileage: string;
  running: boolean;
  vin: string | null;
  last_running_at: number | null;
  last_data_at: number | null;
  last_waypoint_at: number | null;
  last_latitude: number | null;
  last_longitude: number | null;
  open_trip: [number, number, number, number | null, number | null, number | null, number | null, number | null, number | null, number | null, number | null] | null;
  existing: [number, number][] | null;
  subscriptions: Parameters<typeof toLiveSubscriptions>[0];
  subscriptions_version: string;
};

export async function readForIngest(sql: Sql, input: { scope: AccountScope; ref: string; timestamps: string[] }): Promise<IngestRead | null> {
  const p = new Params(sql as postgres.Sql);
  const match = vehicleMatch(p, input.scope.environment, input.ref);
  // One probe of data_sets_vehicle_time_key per timestamp: `recorded_at = any(array)` was planned,
  // once generic, as a scan of all the vehicle's data sets (1.3 s for a batch of 500 on a vehicle
  // with 5,000 data sets, and growing with its history: bench/ingest.ts).
  const text = `
    select v.id, v.account_id, v.xmin::text as version, v.mileage, v.running, v.vin,
           ${ms("v.last_running_at")} as last_running_at, ${ms("v.last_data_at")} as last_data_at,
           ${ms("v.last_waypoint_at")} as last_waypoint_at, v.last_latitude, v.last_longitude,
           (select json_build_array(t.id, ${ms("t.start_time")}, ${ms("t.last_data_at")}, t.mileage, ${ms("t.start_waypoint_at")}, t.start_latitude, t.start_longitude,
                                    ${ms("t.end_waypoint_at")}, t.end_latitude, t.end_longitude, t.start_mileage)
              from trips t where t.vehicle_id = v.id and t.end_time is null order by t.start_time desc limit 1) as open_trip,
           (select json_agg(json_build_array(${ms("x.at")}, x.id)) from (
              select u.at, (select s.id from data_sets s where s.vehicle_id = v.id and s.recorded_at = u.at) as id
                from unnest(${p.array(input.timestamps)}::timestamptz[]) as u(at)) x
             where x.id is not null) as existing,
           ${liveSubscriptionsColumn} as subscriptions, ${liveSubscriptionsVersion} as subscriptions_version
      from vehicles v
     where v.environment = ${p.add(input.scope.environment)} and ${ownerCondition(p.add(input.scope.accountId ?? null), p.add(input.scope.appId ?? null))} and ${match.where}
     ${match.order}
     limit 1`;
  const [row] = (await runRaw(sql as postgres.TransactionSql, text, p.values)) as unknown as ReadRow[];
  if (!row) return null;
  const trip = row.open_trip;
  const point = (at: number | null, latitude: number | null, longitude: number | null) => (at === null || latitude === null || longitude === null ? null : { at: new Date(at), latitude, longitude });
  return {
    vehicle: { id: Number(row.id), accountId: Number(row.account_id) },
    version: row.version,
    state: {
      mileage: Number(row.mileage),
      running: row.running,
      vin: row.vin,
      lastRunningAt: date(row.last_running_at),
      lastDataAt: date(row.last_data_at),
      lastWaypoint:
        row.last_waypoint_at !== null && row.last_latitude !== null
          ? { at: new Date(row.last_waypoint_at), latitude: Number(row.last_latitude), longitude: Number(row.last_longitude) }
          : null,
    },
    openTrip: trip && {
      ref: trip[0],
      startTime: new Date(trip[1]),
      lastDataAt: new Date(trip[2]),
      endTime: null,
      mileage: trip[3],
      startMileage: trip[10],
      start: point(trip[4], trip[5], trip[6]),
      end: point(trip[7], trip[8], trip[9]),
    },
    existing: new Map(row.existing ?? []),
    subscriptions: toLiveSubscriptions(row.subscriptions),
    subscriptionsVersion: row.subscriptions_version,
  };
}

/** Locks the vehicle row until the transaction ends: the slow path, after a write found it changed. */
export async function lockVehicle(tx: postgres.TransactionSql, vehicleId: number): Promise<void> {
  await runRaw(tx, "select 1 from vehicles where id = $1 for update", [vehicleId]);
}

/**
 * tripId names an existing trip; tripStart a trip this write creates (trips start at one of the
 * vehicle's data sets, so the start time is unique); late sets take the trip whose span holds
 * them. All resolved in SQL, so the write needs no ids back first.
 */
export type NewDataSet = { recordedAt: string; ignitionStatus: string; tripId: number | null; tripStart: string | null; late: boolean; deviceId: string | null; vin: string | null };

/** A point names its data set by the set's timestamp. */
export type NewDataPoint = { setAt: string; position: number; recordedAt: string; key: string; value: string };

export type IngestWrite = {
  environment: Environment;
  vehicleId: number;
  version: string;
  state: VehicleState;
  decoded: { year: string | null; make: string | null; model: string | null } | null;
  createdTrips: OpenTrip[];
  updatedTrips: OpenTrip[];
  sets: NewDataSet[];
  points: NewDataPoint[];
  /** The notifications and subscription states evaluation made (server/notifications/ingest-queries.ts). */
  events: Omit<NotificationWrite, "vehicleId"> | null;
  /**
   * Set when the write goes without a read of its own, on a vehicle read by an earlier ingest
   * (recent-vehicles.ts): the write then also checks what the read would have, that the caller
   * still sees the vehicle and the same subscriptions see it (the version covers the rest).
   */
  unread?: { scope: AccountScope; subscriptionsVersion: string; tokenHash: string | null; dataProvider: boolean };
};

export type Written = {
  /** The vehicle row's version after the write. */
  version: string;
  sets: { id: number; at: number; tripId: number | null }[];
  points: { id: number; dataSetId: number; position: number }[];
  /** The trips the write created, by start time (epoch ms). */
  createdTrips: Map<number, number>;
};

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
  t.startMileage,
];
// Mileages are exact decimals (server/vehicles/miles.ts): sent as text, the number's shortest form.
const TRIP_TYPES = ["timestamptz", "timestamptz", "timestamptz", "numeric", "timestamptz", "float8", "float8", "timestamptz", "float8", "float8", "numeric"];
/** Trips as unnest() arguments: their vehicle, the given leading column, then tripColumns. */
const tripArrays = (p: Params, trips: { vehicleId: number; trip: OpenTrip }[], lead?: (t: OpenTrip) => string) => {
  const rows = trips.map(({ trip }) => tripColumns(trip));
  return [
    `${p.array(trips.map((t) => t.vehicleId))}::int[]`,
    ...(lead ? [`${p.array(trips.map((t) => lead(t.trip)))}::bigint[]`] : []),
    ...TRIP_TYPES.map((type, i) => `${p.array(rows.map((row) => row[i] ?? null))}::${type}[]`),
  ].join(", ");
};
const TRIP_NAMES = "start_time, end_time, last_data_at, mileage, start_at, start_lat, start_lon, end_at, end_lat, end_lon, start_mileage";

/**
 * Each vehicle's row, for the version check and the new state. `unread` vehicles are also
 * checked for what the token lookup and the read would have found (recent-vehicles.ts): the
 * token still works, the caller still sees the vehicle, the same subscriptions see it.
 */
function vehicleRows(p: Params, writes: IngestWrite[]): string {
  const col = <T,>(pick: (w: IngestWrite) => T, type: string) => `${p.array(writes.map(pick) as (string | number | boolean | null)[])}::${type}[]`;
  const at = (d: Date | null | undefined) => (d ? iso(d) : null);
  return `unnest(${[
    col((w) => w.vehicleId, "int"),
    col((w) => w.version, "xid"),
    col((w) => w.state.mileage, "numeric"),
    col((w) => w.state.running, "boolean"),
    col((w) => at(w.state.lastRunningAt), "timestamptz"),
    col((w) => at(w.state.lastDataAt), "timestamptz"),
    col((w) => at(w.state.lastWaypoint?.at), "timestamptz"),
    col((w) => w.state.lastWaypoint?.latitude ?? null, "float8"),
    col((w) => w.state.lastWaypoint?.longitude ?? null, "float8"),
    col((w) => w.state.vin, "text"),
    col((w) => w.decoded !== null, "boolean"),
    col((w) => w.decoded?.year ?? null, "text"),
    col((w) => w.decoded?.make ?? null, "text"),
    col((w) => w.decoded?.model ?? null, "text"),
    col((w) => w.unread !== undefined, "boolean"),
    col((w) => w.unread?.scope.accountId ?? null, "int"),
    col((w) => w.unread?.scope.appId ?? null, "int"),
    col((w) => w.unread?.subscriptionsVersion ?? null, "text"),
    col((w) => w.unread?.tokenHash ?? null, "text"),
    col((w) => w.unread?.dataProvider ?? false, "boolean"),
  ].join(", ")})
    as r(vehicle, version, mileage, running, last_running_at, last_data_at, last_waypoint_at, latitude, longitude, vin,
         decoded, year, make, model, unread, account, app, subscriptions, token, data_provider)`;
}

/**
 * The write, for one vehicle or several (write-groups.ts): one statement, so all of it or none.
 * For each vehicle, null when its row was no longer the version read, or an unread check failed:
 * nothing was written for that vehicle. The writes must be of one environment and of distinct
 * vehicles.
 */
export async function writeIngest(sql: Sql, writes: IngestWrite[]): Promise<(Written | null)[]> {
  const environment = writes[0]!.environment;
  if (writes.some((w) => w.environment !== environment) || new Set(writes.map((w) => w.vehicleId)).size !== writes.length) {
    throw new Error("writeIngest: one environment and distinct vehicles per statement");
  }
  const p = new Params(sql as postgres.Sql);
  const env = p.add(environment);
  const ctes: string[] = [
    // A vehicle row another transaction holds (its slow path under the row lock, its deletion)
    // is skipped, not waited for: its write is answered null, like a changed one, and retried
    // alone, while the rest of the group goes on.
    `free as (select id from vehicles where id = any(${p.array(writes.map((w) => w.vehicleId))}::int[]) for no key update skip locked)`,
    `cas as (update vehicles v set mileage = r.mileage, running = r.running, last_running_at = r.last_running_at, last_data_at = r.last_data_at,
               last_waypoint_at = r.last_waypoint_at, last_latitude = r.latitude, last_longitude = r.longitude, vin = r.vin,
               year = case when r.decoded then r.year else v.year end, make = case when r.decoded then r.make else v.make end,
               model = case when r.decoded then r.model else v.model end
              from ${vehicleRows(p, writes)}
             where v.id = r.vehicle and v.xmin = r.version and v.id in (select id from free)
               and (not r.unread or (${ownerCondition("r.account", "r.app")} and ${liveSubscriptionsVersion} = r.subscriptions
                                     and (r.token is null or ${tokenStillWorks("r.token", "r.data_provider")})))
             returning v.id, v.xmin::text as version)`,
  ];
  const updatedTrips = writes.flatMap((w) => w.updatedTrips.map((trip) => ({ vehicleId: w.vehicleId, trip })));
  if (updatedTrips.length > 0) {
    ctes.push(`tu as (update trips t set start_time = u.start_time, end_time = u.end_time, last_data_at = u.last_data_at, mileage = u.mileage,
                        start_waypoint_at = u.start_at, start_latitude = u.start_lat, start_longitude = u.start_lon,
                        end_waypoint_at = u.end_at, end_latitude = u.end_lat, end_longitude = u.end_lon
                   from unnest(${tripArrays(p, updatedTrips, (t) => String(t.ref))}) as u(vehicle, id, ${TRIP_NAMES})
                  where t.id = u.id and u.vehicle in (select id from cas))`);
  }
  const createdTrips = writes.flatMap((w) => w.createdTrips.map((trip) => ({ vehicleId: w.vehicleId, trip })));
  if (createdTrips.length > 0) {
    ctes.push(`tn as (insert into trips (environment, vehicle_id, start_time, end_time, last_data_at, mileage, start_waypoint_at, start_latitude, start_longitude, end_waypoint_at, end_latitude, end_longitude, start_mileage)
                  select ${env}, u.* from unnest(${tripArrays(p, createdTrips)}) as u(vehicle, ${TRIP_NAMES})
                   where u.vehicle in (select id from cas)
                 returning id, vehicle_id, start_time)`);
  }
  const sets = writes.flatMap((w) => w.sets.map((set) => ({ vehicleId: w.vehicleId, set })));
  // Late sets see the trips as they were before this statement: a late set is older than every
  // set of its vehicle's write, so no trip that write creates or extends can be the one that holds it.
  ctes.push(`ds as (insert into data_sets (environment, vehicle_id, recorded_at, ignition_status, trip_id, device_id, vin)
                select ${env}, s.vehicle, s.at, s.ignition,
                       case when s.late then (select id from trips where vehicle_id = s.vehicle and start_time <= s.at and coalesce(end_time, 'infinity') >= s.at
                                               order by start_time desc limit 1)
                            ${createdTrips.length > 0 ? "when s.trip_start is not null then (select id from tn where tn.vehicle_id = s.vehicle and tn.start_time = s.trip_start)" : ""}
                            else s.trip end,
                       s.device, s.vin
                  from unnest(${p.array(sets.map((x) => x.vehicleId))}::int[], ${p.array(sets.map((x) => x.set.recordedAt))}::timestamptz[], ${p.array(sets.map((x) => x.set.ignitionStatus))}::text[],
                              ${p.array(sets.map((x) => (x.set.tripId === null ? null : String(x.set.tripId))))}::bigint[], ${p.array(sets.map((x) => x.set.tripStart))}::timestamptz[],
                              ${p.array(sets.map((x) => x.set.late))}::boolean[], ${p.array(sets.map((x) => x.set.deviceId))}::text[], ${p.array(sets.map((x) => x.set.vin))}::text[])
                    with ordinality as s(vehicle, at, ignition, trip, trip_start, late, device, vin, ord)
                 where s.vehicle in (select id from cas)
                 order by s.ord
               returning id, vehicle_id, recorded_at, trip_id)`);
  const points = writes.flatMap((w) => w.points.map((point) => ({ vehicleId: w.vehicleId, point })));
  if (points.length > 0) {
    ctes.push(`dp as (insert into data_points (vehicle_id, data_set_id, position, recorded_at, key, value)
                  select u.vehicle, ds.id, u.pos, u.at, u.key, u.value
                    from unnest(${p.array(points.map((x) => x.vehicleId))}::int[], ${p.array(points.map((x) => x.point.setAt))}::timestamptz[],
                                ${p.array(points.map((x) => String(x.point.position)))}::smallint[], ${p.array(points.map((x) => x.point.recordedAt))}::timestamptz[],
                                ${p.array(points.map((x) => x.point.key))}::text[], ${p.array(points.map((x) => x.point.value))}::text[])
                      with ordinality as u(vehicle, set_at, pos, at, key, value, ord)
                    join ds on ds.vehicle_id = u.vehicle and ds.recorded_at = u.set_at
                   order by u.ord
                 returning id, data_set_id, position)`);
  }
  // The per-vehicle and per-key counts that list totals read.
  const keyCounts = writes.flatMap((w) => {
    const counts = new Map<string, number>();
    for (const x of w.points) counts.set(x.key, (counts.get(x.key) ?? 0) + 1);
    return [...counts].map(([key, n]) => ({ vehicleId: w.vehicleId, key, n }));
  });
  ctes.push(`vs as (insert into vehicle_data_stats (vehicle_id, data_sets, data_points)
                select u.vehicle, u.sets, u.points
                  from unnest(${p.array(writes.map((w) => w.vehicleId))}::int[], ${p.array(writes.map((w) => String(w.sets.length)))}::bigint[],
                              ${p.array(writes.map((w) => String(w.points.length)))}::bigint[]) as u(vehicle, sets, points)
                 where u.vehicle in (select id from cas)
                on conflict (vehicle_id) do update set data_sets = vehicle_data_stats.data_sets + excluded.data_sets,
                  data_points = vehicle_data_stats.data_points + excluded.data_points)`);
  if (keyCounts.length > 0) {
    ctes.push(`ks as (insert into vehicle_key_stats (vehicle_id, key, data_points)
                  select k.vehicle, k.key, k.n
                    from unnest(${p.array(keyCounts.map((k) => k.vehicleId))}::int[], ${p.array(keyCounts.map((k) => k.key))}::text[],
                                ${p.array(keyCounts.map((k) => String(k.n)))}::bigint[]) as k(vehicle, key, n)
                   where k.vehicle in (select id from cas)
                  on conflict (vehicle_id, key) do update set data_points = vehicle_key_stats.data_points + excluded.data_points)`);
  }
  ctes.push(...notificationWrites(p, environment, writes.flatMap((w) => (w.events ? [{ ...w.events, vehicleId: w.vehicleId }] : []))));

  const text = `with ${ctes.join(",\n")}
    select (select json_agg(json_build_array(id, version)) from cas) as versions,
           (select json_agg(json_build_array(id, ${ms("recorded_at")}, trip_id, vehicle_id)) from ds) as sets,
           ${points.length > 0 ? "(select json_agg(json_build_array(id, data_set_id, position)) from dp)" : "null"} as points,
           ${createdTrips.length > 0 ? `(select json_agg(json_build_array(id, ${ms("start_time")}, vehicle_id)) from tn)` : "null"} as trips`;
  type Row = { versions: [number, string][] | null; sets: [number, number, number | null, number][] | null; points: [number, number, number][] | null; trips: [number, number, number][] | null };
  const [row] = (await runRaw(sql as postgres.TransactionSql, text, p.values)) as unknown as Row[];
  const versions = new Map(row?.versions ?? []);
  // Split by vehicle: sets and created trips name theirs, points their set.
  const listOf = <T,>(by: Map<number, T[]>, vehicleId: number) => by.get(vehicleId) ?? by.set(vehicleId, []).get(vehicleId)!;
  const setsOf = new Map<number, Written["sets"]>();
  const vehicleOfSet = new Map<number, number>();
  for (const [id, at, tripId, vehicleId] of row?.sets ?? []) {
    listOf(setsOf, vehicleId).push({ id, at, tripId });
    vehicleOfSet.set(id, vehicleId);
  }
  const pointsOf = new Map<number, Written["points"]>();
  for (const [id, dataSetId, position] of row?.points ?? []) listOf(pointsOf, vehicleOfSet.get(dataSetId)!).push({ id, dataSetId, position });
  const tripsOf = new Map<number, [number, number][]>();
  for (const [id, start, vehicleId] of row?.trips ?? []) listOf(tripsOf, vehicleId).push([start, id]);
  return writes.map((w): Written | null => {
    const version = versions.get(w.vehicleId);
    if (version === undefined) return null;
    return {
      version,
      sets: setsOf.get(w.vehicleId) ?? [],
      points: pointsOf.get(w.vehicleId) ?? [],
      createdTrips: new Map(tripsOf.get(w.vehicleId)),
    };
  });
}
