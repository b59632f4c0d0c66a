import { epochMs as ms, type Fragment, type Sql } from "@/db/fragments";
import type { AccountScope } from "@/server/accounts/queries";
import type { LiveSubscription } from "@/server/notifications/evaluate";
import {
  liveSubscriptionsColumn,
  liveSubscriptionsVersion,
  toLiveSubscriptions,
} from "@/server/notifications/ingest-queries";
import { alertRulesColumn, alertRulesVersion, toAlertRules } from "@/server/alerts/ingest-queries";
import type { AlertRules } from "@/server/alerts/evaluate";
import { vehicleIdOf } from "@/server/vehicles/queries";
import type { OpenTrip, VehicleState } from "../segmentation";

// Ingest's read: one statement gives the vehicle (visible to the caller), its state and version,
// its open trip, the data sets it already has at the posted timestamps, and the subscriptions
// that see it. One statement rather than several because each costs a round trip and, in node,
// about 70 µs of CPU under load (docs/benchmarks.md).

export type IngestRead = {
  /** locationPaused: the driver's pause (docs/driver-site.md#pause-location), read by this same statement. */
  vehicle: { id: number; accountId: number; locationPaused: boolean };
  /** The vehicle row's xmin when read: every update of the row changes it (write.ts checks it). */
  version: string;
  state: VehicleState;
  openTrip: OpenTrip | null;
  /** The ids of the data sets the vehicle already has at the posted timestamps, keyed by epoch ms. */
  existing: Map<number, number>;
  subscriptions: LiveSubscription[];
  /** Which subscriptions and alert rules those are, as rulesVersion tells. */
  subscriptionsVersion: string;
  /** The driver's alert rules and the vehicle's episodes; null when the driver chose no alert. */
  alertRules: AlertRules | null;
};

/**
 * For the vehicle `v`: the live subscriptions and the account's alert rules, as text (equal text,
 * equal rules): a column of the read, and what a write without a read checks (write.ts).
 */
export const rulesVersion = (sql: Sql): Fragment =>
  sql`(${liveSubscriptionsVersion(sql)} || '#' || ${alertRulesVersion(sql)})`;

/**
 * The caller's accounts, for the vehicle alias `v`: a user token's own account, or every account
 * that granted a client token's app access. `account` and `app` are parameters or columns of the
 * write's rows, one of them null.
 */
export const ownedByCaller = (sql: Sql, account: Fragment, app: Fragment): Fragment =>
  sql`(case when ${account}::int is not null then v.account_id = ${account}::int
            else v.account_id in (select account_id from account_grants where app_id = ${app}::int and revoked_at is null) end)`;

/**
 * A vehicle by numeric vehicleId or device serial; a numeric text that is both prefers the
 * vehicleId (as server/vehicles/queries.ts findVehicle). Written as `id in (…)` so that both
 * candidates are primary-key probes.
 */
function vehicleMatch(sql: Sql, scope: AccountScope, ref: string): { where: Fragment; order: Fragment } {
  const bySerial = sql`(select d.vehicle_id from devices d where d.environment = ${scope.environment} and d.serial = ${ref})`;
  const id = vehicleIdOf(ref);
  if (id === null) return { where: sql`v.id = ${bySerial}`, order: sql`` };
  return { where: sql`v.id in (${id}, ${bySerial})`, order: sql`order by (v.id = ${id}) desc` };
}

type ReadRow = {
  location_paused: boolean;
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
  open_trip:
    | [
        number,
        number,
        number,
        number | null,
        number | null,
        number | null,
        number | null,
        number | null,
        number | null,
        number | null,
        number | null,
      ]
    | null;
  existing: [number, number][] | null;
  subscriptions: Parameters<typeof toLiveSubscriptions>[0];
  subscriptions_version: string;
  alert_rules: Parameters<typeof toAlertRules>[0];
};

/** The vehicle as ingest needs it, or null when the caller cannot see it. timestamps: the posted ones (ISO). */
export async function readForIngest(
  sql: Sql,
  input: { scope: AccountScope; ref: string; timestamps: string[] },
): Promise<IngestRead | null> {
  const { scope } = input;
  const match = vehicleMatch(sql, scope, input.ref);
  // One probe of data_sets_vehicle_time_key per timestamp: `recorded_at = any(array)` was planned,
  // once generic, as a scan of all the vehicle's data sets (1.3 s for a batch of 500 on a vehicle
  // with 5,000 data sets, and growing with its history: bench/ingest.ts).
  const [row] = await sql<ReadRow[]>`
    select v.id, v.account_id, v.location_paused, v.xmin::text as version, v.mileage, v.running, v.vin,
           ${ms(sql, sql`v.last_running_at`)} as last_running_at, ${ms(sql, sql`v.last_data_at`)} as last_data_at,
           ${ms(sql, sql`v.last_waypoint_at`)} as last_waypoint_at, v.last_latitude, v.last_longitude,
           (select json_build_array(t.id, ${ms(sql, sql`t.start_time`)}, ${ms(sql, sql`t.last_data_at`)}, t.mileage, ${ms(sql, sql`t.start_waypoint_at`)},
                                    t.start_latitude, t.start_longitude, ${ms(sql, sql`t.end_waypoint_at`)}, t.end_latitude, t.end_longitude, t.start_mileage)
              from trips t where t.vehicle_id = v.id and t.end_time is null order by t.start_time desc limit 1) as open_trip,
           (select json_agg(json_build_array(${ms(sql, sql`x.at`)}, x.id)) from (
              select u.at, (select s.id from data_sets s where s.vehicle_id = v.id and s.recorded_at = u.at) as id
                from unnest(${input.timestamps}::timestamptz[]) as u(at)) x
             where x.id is not null) as existing,
           ${liveSubscriptionsColumn(sql)} as subscriptions, ${rulesVersion(sql)} as subscriptions_version,
           ${alertRulesColumn(sql)} as alert_rules
      from vehicles v
     where v.environment = ${scope.environment} and ${ownedByCaller(sql, sql`${scope.accountId ?? null}`, sql`${scope.appId ?? null}`)} and ${match.where}
     ${match.order}
     limit 1`;
  if (!row) return null;
  const trip = row.open_trip;
  const date = (value: number | null) => (value === null ? null : new Date(value));
  const point = (at: number | null, latitude: number | null, longitude: number | null) =>
    at === null || latitude === null || longitude === null ? null : { at: new Date(at), latitude, longitude };
  return {
    vehicle: { id: Number(row.id), accountId: Number(row.account_id), locationPaused: row.location_paused },
    version: row.version,
    state: {
      mileage: Number(row.mileage),
      running: row.running,
      vin: row.vin,
      lastRunningAt: date(row.last_running_at),
      lastDataAt: date(row.last_data_at),
      lastWaypoint:
        row.last_waypoint_at !== null && row.last_latitude !== null
          ? {
              at: new Date(row.last_waypoint_at),
              latitude: Number(row.last_latitude),
              longitude: Number(row.last_longitude),
            }
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
    alertRules: toAlertRules(row.alert_rules),
  };
}

/**
 * Locks the vehicle row until the transaction ends: the slow path, after a write found it changed.
 * False when this transaction's id is older than that of the row's last writer: the lock may draw
 * the id before it waits, and the event feed orders a vehicle's events by transaction id
 * (docs/event-feed.md#order), so the caller starts again in a new transaction, whose id is newer.
 */
export async function lockVehicle(tx: Sql, vehicleId: number): Promise<boolean> {
  const [row] = await tx<
    { in_order: boolean }[]
  >`select age(xmin) >= 0 as in_order from vehicles where id = ${vehicleId} for update`;
  return row?.in_order ?? true;
}
