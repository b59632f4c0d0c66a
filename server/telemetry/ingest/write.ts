import { commaSeparated, epochMs as ms, type Fragment, type Sql } from "@/db/fragments";
import type { Environment } from "@/db/schema";
import type { AccountScope } from "@/server/accounts/queries";
import { notificationWrites, type NotificationWrite } from "@/server/notifications/ingest-queries";
import { alertWrites, type AlertWrite } from "@/server/alerts/ingest-queries";
import type { OpenTrip, VehicleState } from "../segmentation";
import { ownedByCaller, rulesVersion } from "./read";

// Ingest's write: one statement of data-modifying CTEs (the vehicle's state, trips, data sets,
// data points, counters, notifications and their enqueue, subscription states), so it is atomic
// on its own, and a batch of 500 data sets is still one multi-row insert per table through
// unnest() (about 112,000 rows/s on a 2-core machine beside PostgreSQL). It writes only if the
// vehicle row is still the version the read saw (its xmin, which every update of the row
// changes); otherwise it writes nothing and says so. One statement may carry several vehicles'
// writes (write-groups.ts): every row it writes names its vehicle, and a vehicle's rows are
// written only if its own check held.

/**
 * tripId names an existing trip; tripStart a trip this write creates (trips start at one of the
 * vehicle's data sets, so the start time is unique); late sets take the trip whose span holds
 * them. All resolved in SQL, so the write needs no ids back first.
 */
export type NewDataSet = {
  recordedAt: string;
  /**
   * The span of the set's time and its points' times (data_sets.points_from, points_to); null when
   * every point is at the set's time, as devices usually stamp them. Times are most of a batch's
   * parameters, so only those that differ from the set's are sent (docs/benchmarks.md).
   */
  pointsFrom: string | null;
  pointsTo: string | null;
  ignitionStatus: string;
  tripId: number | null;
  tripStart: string | null;
  late: boolean;
  deviceId: string | null;
  vin: string | null;
};

/**
 * A point names its data set by the set's index in its write's `sets` (a number is a fifth of a
 * time's bytes in the statement's parameters); its own time is null when it is the set's.
 */
export type NewDataPoint = { set: number; position: number; recordedAt: string | null; key: string; value: string };

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
  events: Omit<NotificationWrite, "vehicleId" | "firstSet"> | null;
  /** The driver's alerts and episodes evaluation made (server/alerts/ingest-queries.ts). */
  alerts: Omit<AlertWrite, "vehicleId" | "firstSet"> | null;
  /**
   * Set when the write goes on what an earlier ingest read (recent-reads.ts) rather than on a
   * read of its own: the write then also checks what the read would have, that the caller still
   * sees the vehicle and the same subscriptions see it (the version covers the rest). Ownership
   * is so decided once a request: by the request's own read, which the write then trusts through
   * the version check, or here. The version check alone would not do on a recent read: it covers
   * every change of the vehicle row (moved to another account, edited, deleted) but not an app's
   * grant revoked since (account_grants), which the earlier read could not know of.
   */
  unread?: { scope: AccountScope; subscriptionsVersion: string };
};

export type Written = {
  /** The vehicle row's version after the write. */
  version: string;
  sets: { id: number; at: number; tripId: number | null }[];
  points: { id: number; dataSetId: number; position: number }[];
  /** The trips the write created, by start time (epoch ms). */
  createdTrips: Map<number, number>;
};

const iso = (d: Date) => d.toISOString();
/** The first day of a time's calendar month (UTC), of an ISO time: "2026-11-26T08:00:00.000Z" → "2026-11-01". */
const monthOf = (time: string) => `${time.slice(0, 7)}-01`;
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
/**
 * The trips' columns as unnest() arguments, in TRIP_NAMES order. Mileages are exact decimals
 * (common/telemetry/miles.ts): sent as text, the number's shortest form.
 */
function tripArrays(sql: Sql, trips: OpenTrip[]): Fragment {
  const rows = trips.map(tripColumns);
  const column = (i: number) => rows.map((row) => row[i] ?? null) as never[];
  return sql`${column(0)}::timestamptz[], ${column(1)}::timestamptz[], ${column(2)}::timestamptz[], ${column(3)}::numeric[], ${column(4)}::timestamptz[],
             ${column(5)}::float8[], ${column(6)}::float8[], ${column(7)}::timestamptz[], ${column(8)}::float8[],
             ${column(9)}::float8[], ${column(10)}::numeric[]`;
}
const TRIP_NAMES = (sql: Sql) =>
  sql`start_time, end_time, last_data_at, mileage, start_at, start_lat, start_lon, end_at, end_lat, end_lon, start_mileage`;

/** A point's time: its own, or its set's (null in the point when they are the same). */
const pointTime = (w: IngestWrite, p: NewDataPoint) => p.recordedAt ?? w.sets[p.set]!.recordedAt;

/** Whether ISO time a is later than b; toISOString's 24 characters compare as text (other years by parsing). */
const laterThan = (a: string, b: string) =>
  a.length === 24 && b.length === 24 ? a > b : Date.parse(a) > Date.parse(b);

/** Each vehicle's newest time of each key among its write's points (a point's own time, or its set's). */
function newestTimes(writes: IngestWrite[]): { vehicleId: number; key: string; at: string }[] {
  return writes.flatMap((w) => {
    const newest = new Map<string, string>();
    for (const p of w.points) {
      const at = pointTime(w, p);
      const kept = newest.get(p.key);
      if (kept === undefined || laterThan(at, kept)) newest.set(p.key, at);
    }
    return [...newest].map(([key, at]) => ({ vehicleId: w.vehicleId, key, at }));
  });
}

/**
 * Each vehicle's row, for the version check and the new state. `unread` vehicles are also
 * checked for what the read would have found (recent-reads.ts): the caller still sees the
 * vehicle, the same subscriptions see it.
 */
function vehicleRows(sql: Sql, writes: IngestWrite[]): Fragment {
  const col = (pick: (w: IngestWrite) => string | number | boolean | null) => writes.map(pick) as never[];
  const at = (d: Date | null | undefined) => (d ? iso(d) : null);
  return sql`unnest(${col((w) => w.vehicleId)}::int[], ${col((w) => w.version)}::xid[], ${col((w) => w.state.mileage)}::numeric[],
                    ${col((w) => w.state.running)}::boolean[], ${col((w) => at(w.state.lastRunningAt))}::timestamptz[],
                    ${col((w) => at(w.state.lastDataAt))}::timestamptz[], ${col((w) => at(w.state.lastWaypoint?.at))}::timestamptz[],
                    ${col((w) => w.state.lastWaypoint?.latitude ?? null)}::float8[], ${col((w) => w.state.lastWaypoint?.longitude ?? null)}::float8[],
                    ${col((w) => w.state.vin)}::text[], ${col((w) => w.decoded !== null)}::boolean[], ${col((w) => w.decoded?.year ?? null)}::text[],
                    ${col((w) => w.decoded?.make ?? null)}::text[], ${col((w) => w.decoded?.model ?? null)}::text[],
                    ${col((w) => w.unread !== undefined)}::boolean[], ${col((w) => w.unread?.scope.accountId ?? null)}::int[],
                    ${col((w) => w.unread?.scope.appId ?? null)}::int[], ${col((w) => w.unread?.subscriptionsVersion ?? null)}::text[])
    as r(vehicle, version, mileage, running, last_running_at, last_data_at, last_waypoint_at, latitude, longitude, vin,
         decoded, year, make, model, unread, account, app, subscriptions)`;
}

/**
 * The write, for one vehicle or several (write-groups.ts): one statement, so all of it or none.
 * For each vehicle, null when its row was no longer the version read, or an unread check failed:
 * nothing was written for that vehicle. The writes must be of one environment and of distinct
 * vehicles.
 */
export async function writeIngest(sql: Sql, writes: IngestWrite[]): Promise<(Written | null)[]> {
  const environment = writes[0]!.environment;
  if (
    writes.some((w) => w.environment !== environment) ||
    new Set(writes.map((w) => w.vehicleId)).size !== writes.length
  ) {
    throw new Error("writeIngest: one environment and distinct vehicles per statement");
  }
  const ctes: Fragment[] = [
    // A vehicle row another transaction holds (its slow path under the row lock, its deletion)
    // is skipped, not waited for: its write is answered null, like a changed one, and retried
    // alone, while the rest of the group goes on.
    sql`free as (select id from vehicles where id = any(${writes.map((w) => w.vehicleId)}::int[]) for no key update skip locked)`,
    sql`cas as (update vehicles v set mileage = r.mileage, running = r.running, last_running_at = r.last_running_at, last_data_at = r.last_data_at,
               last_waypoint_at = r.last_waypoint_at, last_latitude = r.latitude, last_longitude = r.longitude, vin = r.vin,
               year = case when r.decoded then r.year else v.year end, make = case when r.decoded then r.make else v.make end,
               model = case when r.decoded then r.model else v.model end
              from ${vehicleRows(sql, writes)}
             where v.id = r.vehicle and v.xmin = r.version and v.id in (select id from free)
               and (not r.unread or (${ownedByCaller(sql, sql`r.account`, sql`r.app`)} and ${rulesVersion(sql)} = r.subscriptions))
             returning v.id, v.xmin::text as version)`,
  ];
  const updatedTrips = writes.flatMap((w) => w.updatedTrips.map((trip) => ({ vehicleId: w.vehicleId, trip })));
  if (updatedTrips.length > 0) {
    ctes.push(sql`tu as (update trips t set start_time = u.start_time, end_time = u.end_time, last_data_at = u.last_data_at, mileage = u.mileage,
                        start_waypoint_at = u.start_at, start_latitude = u.start_lat, start_longitude = u.start_lon,
                        end_waypoint_at = u.end_at, end_latitude = u.end_lat, end_longitude = u.end_lon
                   from unnest(${updatedTrips.map((t) => t.vehicleId)}::int[], ${updatedTrips.map((t) => String(t.trip.ref))}::bigint[],
                               ${tripArrays(
                                 sql,
                                 updatedTrips.map((t) => t.trip),
                               )}) as u(vehicle, id, ${TRIP_NAMES(sql)})
                  where t.id = u.id and u.vehicle in (select id from cas))`);
  }
  const createdTrips = writes.flatMap((w) => w.createdTrips.map((trip) => ({ vehicleId: w.vehicleId, trip })));
  if (createdTrips.length > 0) {
    ctes.push(sql`tn as (insert into trips (environment, vehicle_id, start_time, end_time, last_data_at, mileage,
                                           start_waypoint_at, start_latitude, start_longitude, end_waypoint_at,
                                           end_latitude, end_longitude, start_mileage)
                  select ${environment}, u.* from unnest(${createdTrips.map((t) => t.vehicleId)}::int[], ${tripArrays(
                    sql,
                    createdTrips.map((t) => t.trip),
                  )}) as u(vehicle, ${TRIP_NAMES(sql)})
                   where u.vehicle in (select id from cas)
                 returning id, vehicle_id, start_time)`);
  }
  const sets = writes.flatMap((w) => w.sets.map((set) => ({ vehicleId: w.vehicleId, set })));
  // Late sets see the trips as they were before this statement: a late set is older than every
  // set of its vehicle's write, so no trip that write creates or extends can be the one that holds it.
  const ofCreatedTrip =
    createdTrips.length > 0
      ? sql`when s.trip_start is not null then (select id from tn where tn.vehicle_id = s.vehicle and tn.start_time = s.trip_start)`
      : sql``;
  // The sets as sent, numbered (ord) in the statement's order: points name theirs by that number.
  ctes.push(sql`sets_in as (select * from unnest(${sets.map((x) => x.vehicleId)}::int[], ${sets.map((x) => x.set.recordedAt)}::timestamptz[],
                              ${sets.map((x) => x.set.pointsFrom)}::timestamptz[], ${sets.map((x) => x.set.pointsTo)}::timestamptz[],
                              ${sets.map((x) => x.set.ignitionStatus)}::text[],
                              ${sets.map((x) => (x.set.tripId === null ? null : String(x.set.tripId)))}::bigint[],
                              ${sets.map((x) => x.set.tripStart)}::timestamptz[],
                              ${sets.map((x) => x.set.late)}::boolean[], ${sets.map((x) => x.set.deviceId)}::text[], ${sets.map((x) => x.set.vin)}::text[])
                    with ordinality as s(vehicle, at, points_from, points_to, ignition, trip, trip_start, late, device, vin, ord))`);
  ctes.push(sql`ds as (insert into data_sets (environment, vehicle_id, recorded_at, points_from, points_to, ignition_status, trip_id, device_id, vin)
                select ${environment}, s.vehicle, s.at, coalesce(s.points_from, s.at), coalesce(s.points_to, s.at), s.ignition,
                       case when s.late then (select id from trips where vehicle_id = s.vehicle and start_time <= s.at
                                                 and coalesce(end_time, 'infinity') >= s.at
                                               order by start_time desc limit 1)
                            ${ofCreatedTrip}
                            else s.trip end,
                       s.device, s.vin
                  from sets_in s
                 where s.vehicle in (select id from cas)
                 order by s.ord
               returning id, vehicle_id, recorded_at, trip_id)`);
  // The number (sets_in.ord) of each write's first set: its points and notifications name their set by it.
  const firstSets: number[] = [];
  let nextSet = 1;
  for (const w of writes) {
    firstSets.push(nextSet);
    nextSet += w.sets.length;
  }
  const points = writes.flatMap((w, i) => w.points.map((point) => ({ point, setOrd: firstSets[i]! + point.set })));
  if (points.length > 0) {
    ctes.push(sql`dp as (insert into data_points (vehicle_id, data_set_id, position, recorded_at, key, value)
                  select s.vehicle, ds.id, u.pos, coalesce(u.at, s.at), u.key, u.value
                    from unnest(${points.map((x) => x.setOrd)}::int[],
                                ${points.map((x) => String(x.point.position))}::smallint[], ${points.map((x) => x.point.recordedAt)}::timestamptz[],
                                ${points.map((x) => x.point.key)}::text[], ${points.map((x) => x.point.value)}::text[])
                      with ordinality as u(set_ord, pos, at, key, value, ord)
                    join sets_in s on s.ord = u.set_ord
                    join ds on ds.vehicle_id = s.vehicle and ds.recorded_at = s.at
                   order by u.ord
                 returning id, data_set_id, position, vehicle_id, key, recorded_at, value)`);
    // Each key's newest point, copied for GET …/data/?mostRecentOnly=true (db/schema/telemetry.ts): this write's
    // newest of each (vehicle, key) replaces the kept one when it is newer (a late set's points are not); of two at
    // the same time, the later written (its id is larger), as data_points' own order has it. Node names each key's
    // newest time, so PostgreSQL picks those few points out of dp rather than sorting all of it (the sort was 1.3 ms
    // of a 33.5 ms batch statement, docs/benchmarks.md).
    const newest = newestTimes(writes);
    ctes.push(sql`lp as (insert into latest_data_points (vehicle_id, key, point_id, data_set_id, position, recorded_at, value)
                  select distinct on (dp.vehicle_id, dp.key) dp.vehicle_id, dp.key, dp.id, dp.data_set_id, dp.position, dp.recorded_at, dp.value
                    from dp join unnest(${newest.map((n) => n.vehicleId)}::int[], ${newest.map((n) => n.key)}::text[],
                                        ${newest.map((n) => n.at)}::timestamptz[]) as n(vehicle, key, at)
                      on dp.vehicle_id = n.vehicle and dp.key = n.key and dp.recorded_at = n.at
                   order by dp.vehicle_id, dp.key, dp.id desc
                  on conflict (vehicle_id, key) do update set point_id = excluded.point_id, data_set_id = excluded.data_set_id,
                    position = excluded.position, recorded_at = excluded.recorded_at, value = excluded.value
                   where (excluded.recorded_at, excluded.point_id) > (latest_data_points.recorded_at, latest_data_points.point_id))`);
  }
  // The per-vehicle and per-key counts that list totals read; a key's by the calendar month (UTC) of its
  // points' times, the month of their partition (retention drops a month by its counters).
  const keyCounts = writes.flatMap((w) => {
    const counts = new Map<string, { key: string; month: string; n: number }>();
    for (const x of w.points) {
      const month = monthOf(pointTime(w, x));
      const keyMonth = `${x.key} ${month}`;
      const count = counts.get(keyMonth);
      if (count) count.n++;
      else counts.set(keyMonth, { key: x.key, month, n: 1 });
    }
    return [...counts.values()].map((c) => ({ vehicleId: w.vehicleId, ...c }));
  });
  ctes.push(sql`vs as (insert into vehicle_data_stats (vehicle_id, data_sets, data_points)
                select u.vehicle, u.sets, u.points
                  from unnest(${writes.map((w) => w.vehicleId)}::int[], ${writes.map((w) => String(w.sets.length))}::bigint[],
                              ${writes.map((w) => String(w.points.length))}::bigint[]) as u(vehicle, sets, points)
                 where u.vehicle in (select id from cas)
                on conflict (vehicle_id) do update set data_sets = vehicle_data_stats.data_sets + excluded.data_sets,
                  data_points = vehicle_data_stats.data_points + excluded.data_points)`);
  if (keyCounts.length > 0) {
    ctes.push(sql`ks as (insert into vehicle_key_stats (vehicle_id, key, month, data_points)
                  select k.vehicle, k.key, k.month, k.n
                    from unnest(${keyCounts.map((k) => k.vehicleId)}::int[], ${keyCounts.map((k) => k.key)}::text[],
                                ${keyCounts.map((k) => k.month)}::date[], ${keyCounts.map((k) => String(k.n))}::bigint[]) as k(vehicle, key, month, n)
                   where k.vehicle in (select id from cas)
                  on conflict (vehicle_id, key, month) do update set data_points = vehicle_key_stats.data_points + excluded.data_points)`);
  }
  ctes.push(
    ...notificationWrites(
      sql,
      environment,
      writes.flatMap((w, i) => (w.events ? [{ ...w.events, vehicleId: w.vehicleId, firstSet: firstSets[i]! }] : [])),
    ),
    ...alertWrites(
      sql,
      writes.flatMap((w, i) => (w.alerts ? [{ ...w.alerts, vehicleId: w.vehicleId, firstSet: firstSets[i]! }] : [])),
    ),
  );

  type Row = {
    versions: [number, string][] | null;
    sets: [number, number, number | null, number][] | null;
    points: [number, number, number][] | null;
    trips: [number, number, number][] | null;
  };
  const [row] = await sql<Row[]>`with ${commaSeparated(sql, ctes)}
    select (select json_agg(json_build_array(id, version)) from cas) as versions,
           (select json_agg(json_build_array(id, ${ms(sql, sql`recorded_at`)}, trip_id, vehicle_id)) from ds) as sets,
           ${points.length > 0 ? sql`(select json_agg(json_build_array(id, data_set_id, position)) from dp)` : sql`null`} as points,
           ${createdTrips.length > 0 ? sql`(select json_agg(json_build_array(id, ${ms(sql, sql`start_time`)}, vehicle_id)) from tn)` : sql`null`} as trips`;
  const versions = new Map(row?.versions ?? []);
  // Split by vehicle: sets and created trips name theirs, points their set.
  const listOf = <T>(by: Map<number, T[]>, vehicleId: number) =>
    by.get(vehicleId) ?? by.set(vehicleId, []).get(vehicleId)!;
  const setsOf = new Map<number, Written["sets"]>();
  const vehicleOfSet = new Map<number, number>();
  for (const [id, at, tripId, vehicleId] of row?.sets ?? []) {
    listOf(setsOf, vehicleId).push({ id, at, tripId });
    vehicleOfSet.set(id, vehicleId);
  }
  const pointsOf = new Map<number, Written["points"]>();
  for (const [id, dataSetId, position] of row?.points ?? [])
    listOf(pointsOf, vehicleOfSet.get(dataSetId)!).push({ id, dataSetId, position });
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
