import { epochMs as ms, type Fragment, type Sql } from "@/db/fragments";
import type { Environment } from "@/db/schema";
import type { StoredCriteria } from "@/server/subscriptions/criteria";
import type { EventType, NotificationPeriod } from "@/common/subscriptions/event-types";
import type { LiveSubscription, PendingNotification, SubscriptionState } from "./evaluate";
import { enqueueDeliveries } from "./pending-deliveries";

// Evaluation's reads and writes as fragments of ingest's own two statements
// (server/telemetry/ingest/read.ts and write.ts): the subscriptions are read with the vehicle's state,
// and notifications, their pending deliveries and the subscriptions' states are written by the
// same statement as the data sets that caused them, so none can be lost or written twice.

/**
 * A column of the read statement, for the vehicle `v` (id, account_id): the live data-event
 * subscriptions that see it — its own and its account's, of apps that still have access to the
 * account (a revoked app's subscriptions stay, silent) — with their recorded state for it, as a
 * JSON array of rows.
 */
export const liveSubscriptionsColumn = (sql: Sql): Fragment => sql`(
  select coalesce(json_agg(json_build_array(s.id, s.app_id, s.client_id, s.type, s.notification_period, s.minimum_time, s.criteria, a.time_zone,
                                            st.met, ${ms(sql, sql`st.evaluated_at`)},
                                              ${ms(sql, sql`st.notified_at`)}, st.anchor_latitude, st.anchor_longitude) order by s.id), '[]')
    from subscriptions s
    join accounts a on a.id = v.account_id
    left join subscription_states st on st.subscription_id = s.id and st.vehicle_id = v.id
   where ${liveForVehicle(sql)})`;

/**
 * For the vehicle `v`: which live subscriptions see it, each at its row's version, and its
 * account's time zone, as text. Equal text, equal subscriptions: a column of the read, and what
 * a write without a read checks (server/telemetry/ingest/recent-reads.ts). Their states for the
 * vehicle are not in it: only ingest writes them, and every ingest changes the vehicle's version.
 */
export const liveSubscriptionsVersion = (sql: Sql): Fragment => sql`(
  (select coalesce(string_agg(s.id::text || '.' || s.xmin::text, ',' order by s.id), '') from subscriptions s where ${liveForVehicle(sql)})
  || '/' || coalesce((select a.time_zone from accounts a where a.id = v.account_id), ''))`;

/**
 * The subscription `s` is live and sees the vehicle `v`: its app's grant on the account is active
 * and allows the type (docs/oauth.md#scopes: GEOFENCE needs precise location, WAYPOINT some
 * location, the other data events `data`), so a driver lowering the grant silences what it no
 * longer allows; and the vehicle's location is not paused for a location type
 * (docs/driver-site.md#pause-location).
 */
const liveForVehicle = (sql: Sql): Fragment => sql`s.deleted_at is null
     and (s.vehicle_id = v.id or (s.scope = 'ACCOUNT' and s.account_id = v.account_id and s.type not in ('VEHICLECREATED', 'VEHICLEDELETED')))
     and not (v.location_paused and s.type in ('GEOFENCE', 'WAYPOINT'))
     and exists (select 1 from account_grants g where g.account_id = v.account_id and g.app_id = s.app_id and g.revoked_at is null
                    and case s.type when 'GEOFENCE' then g.location_precision = 'precise'
                                    when 'WAYPOINT' then g.location_precision <> 'none'
                                    else g.data_scope end)`;

type SubscriptionRow = [
  number,
  number,
  string,
  string,
  string,
  number,
  StoredCriteria | null,
  string | null,
  boolean | null,
  number | null,
  number | null,
  number | null,
  number | null,
];

export function toLiveSubscriptions(rows: SubscriptionRow[]): LiveSubscription[] {
  return rows.map(
    ([
      id,
      appId,
      clientId,
      type,
      period,
      minimumTime,
      criteria,
      timeZone,
      met,
      evaluatedAt,
      notifiedAt,
      anchorLatitude,
      anchorLongitude,
    ]) => ({
      id,
      appId,
      clientId,
      type: type as EventType,
      period: period as NotificationPeriod,
      minimumTime: Number(minimumTime),
      criteria: criteria ?? {},
      timeZone,
      state:
        met === null
          ? null
          : {
              met,
              evaluatedAt: new Date(evaluatedAt!),
              notifiedAt: notifiedAt === null ? null : new Date(notifiedAt),
              anchor:
                anchorLatitude === null
                  ? null
                  : { latitude: Number(anchorLatitude), longitude: Number(anchorLongitude) },
            },
    }),
  );
}

/** What one vehicle's ingest writes besides its data: the notifications evaluation made, and the subscriptions' new states. */
export type NotificationWrite = {
  vehicleId: number;
  accountId: number;
  notifications: PendingNotification[];
  /** The number (sets_in.ord) of the vehicle's first data set in the statement: a notification's set is this plus the index it names. */
  firstSet: number;
  states: Map<number, SubscriptionState>;
};

/**
 * CTEs of the write statement, for one or more vehicles. They take the data sets from the CTEs
 * `sets_in` (the sets as sent, numbered by ord) and `ds` (as written: id, vehicle_id, recorded_at,
 * trip_id), and write nothing for a vehicle unless the CTE `cas` (the vehicles whose version check
 * matched, by id) holds it:
 * - the notifications, each with one pending delivery per active delivery of its subscription.
 *   A ONETIME subscription is claimed by marking it deleted in the same statement: of two
 *   statements that both saw it fire (two vehicles of one account), only the one whose update
 *   finds it undeleted writes its notification. (So one statement never carries two vehicles'
 *   ONETIME notifications: server/telemetry/ingest/write-groups.ts keeps such writes apart.)
 * - their enqueue for delivery (enqueueDeliveries, pending-deliveries.ts).
 * - the subscriptions' states for each vehicle.
 */
export function notificationWrites(sql: Sql, environment: Environment, writes: NotificationWrite[]): Fragment[] {
  const ctes: Fragment[] = [];
  const list = writes.flatMap((w) => w.notifications.map((n) => ({ n, w, setOrd: w.firstSet + n.set })));
  if (list.length > 0) {
    // The claim only when a ONETIME subscription fired: without one, PostgreSQL still searched the
    // subscriptions for a claim, in bench:ingest-cpu's subscribed batches by scanning the statement's
    // notifications once per subscription (1.1 ms of a 58 ms statement, docs/benchmarks.md).
    const claims = list.some((x) => x.n.onetime);
    ctes.push(
      // The bodies go as one JSON document: as a text array, postgres.js escaped every character
      // of every body, a twentieth of a subscribed batch's node CPU.
      sql`nu as (select u.*, b.body from unnest(${list.map((x) => x.w.vehicleId)}::int[], ${list.map((x) => x.w.accountId)}::int[],
                                         ${list.map((x) => x.n.subscriptionId)}::int[],
                                           ${list.map((x) => x.n.appId)}::int[], ${list.map((x) => x.n.type)}::text[],
                                         ${list.map((x) => x.setOrd)}::int[], ${list.map((x) => x.n.onetime)}::boolean[])
                with ordinality as u(vehicle, account, sub, app, type, set_ord, onetime, ord)
                join jsonb_array_elements(${JSON.stringify(list.map((x) => x.n.body))}::jsonb) with ordinality as b(body, ord) on b.ord = u.ord)`,
      ...(claims
        ? [
            sql`claimed as (update subscriptions set deleted_at = now()
                    where id in (select sub from nu where onetime and vehicle in (select id from cas)) and deleted_at is null
                   returning id)`,
          ]
        : []),
      sql`n as (insert into notifications (environment, subscription_id, app_id, account_id, vehicle_id, data_set_id, trip_id, type, event_at, body)
             select ${environment}, nu.sub, nu.app, nu.account, nu.vehicle, ds.id, ds.trip_id, nu.type, ds.recorded_at, nu.body
               from nu join sets_in s on s.ord = nu.set_ord join ds on ds.vehicle_id = s.vehicle and ds.recorded_at = s.at
              ${claims ? sql`where not nu.onetime or nu.sub in (select id from claimed)` : sql``}
              order by nu.ord
             returning id, subscription_id)`,
      sql`nd as (${enqueueDeliveries(sql)})`,
    );
  }
  const states = writes.flatMap((w) => [...w.states].map(([id, state]) => ({ id, state, vehicleId: w.vehicleId })));
  if (states.length > 0) {
    const iso = (d: Date | null) => (d ? d.toISOString() : null);
    ctes.push(
      sql`ss as (insert into subscription_states (subscription_id, vehicle_id, met, evaluated_at, notified_at, anchor_latitude, anchor_longitude)
              select s.sub, s.vehicle, s.met, s.evaluated_at, s.notified_at, s.lat, s.lon
                from unnest(${states.map((e) => e.id)}::int[], ${states.map((e) => e.vehicleId)}::int[], ${states.map((e) => e.state.met)}::boolean[],
                            ${states.map((e) => iso(e.state.evaluatedAt))}::timestamptz[], ${states.map((e) => iso(e.state.notifiedAt))}::timestamptz[],
                            ${states.map((e) => e.state.anchor?.latitude ?? null)}::float8[], ${states.map((e) => e.state.anchor?.longitude ?? null)}::float8[])
                     as s(sub, vehicle, met, evaluated_at, notified_at, lat, lon)
               where s.vehicle in (select id from cas)
              on conflict (subscription_id, vehicle_id) do update set met = excluded.met, evaluated_at = excluded.evaluated_at,
                notified_at = excluded.notified_at, anchor_latitude = excluded.anchor_latitude, anchor_longitude = excluded.anchor_longitude)`,
    );
  }
  return ctes;
}
