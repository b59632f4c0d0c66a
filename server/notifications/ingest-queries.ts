import { epochMs as ms, runRaw as run, type Tx } from "@/db/raw";
import type { Environment } from "@/db/schema";
import type { StoredCriteria } from "@/server/subscriptions/criteria";
import type { EventType, NotificationPeriod } from "@/server/subscriptions/event-types";
import type { LiveSubscription, PendingNotification, SubscriptionState } from "./evaluate";

// Evaluation's reads and writes inside the ingest transaction, pipelined with ingest's own
// statements (ingest.ts). Notifications and their pending deliveries are written in the same
// transaction as the data sets that caused them, so none can be lost.

/**
 * The live data-event subscriptions that see this vehicle: its own and its account's, of apps
 * that still have access to the account (a revoked app's subscriptions stay, silent), with the
 * recorded state for this vehicle. Runs after the vehicle row lock, so the states are current.
 */
export async function liveSubscriptions(tx: Tx, vehicle: { id: number; accountId: number }): Promise<LiveSubscription[]> {
  const rows = await run(
    tx,
    `select s.id, s.app_id, s.client_id, s.type, s.notification_period, s.minimum_time, s.criteria, a.time_zone,
            st.met, ${ms("st.evaluated_at")} as evaluated_at, ${ms("st.notified_at")} as notified_at, st.anchor_latitude, st.anchor_longitude
       from subscriptions s
       join accounts a on a.id = $2
       left join subscription_states st on st.subscription_id = s.id and st.vehicle_id = $1
      where s.deleted_at is null
        and (s.vehicle_id = $1 or (s.scope = 'ACCOUNT' and s.account_id = $2 and s.type not in ('VEHICLECREATED', 'VEHICLEDELETED')))
        and exists (select 1 from account_grants g where g.account_id = $2 and g.app_id = s.app_id and g.revoked_at is null)
      order by s.id`,
    [vehicle.id, vehicle.accountId],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    appId: Number(r.app_id),
    clientId: r.client_id,
    type: r.type as EventType,
    period: r.notification_period as NotificationPeriod,
    minimumTime: Number(r.minimum_time),
    criteria: (r.criteria ?? {}) as StoredCriteria,
    timeZone: r.time_zone,
    state:
      r.met === null
        ? null
        : {
            met: r.met,
            evaluatedAt: new Date(r.evaluated_at),
            notifiedAt: r.notified_at === null ? null : new Date(r.notified_at),
            anchor: r.anchor_latitude === null ? null : { latitude: Number(r.anchor_latitude), longitude: Number(r.anchor_longitude) },
          },
  }));
}

/**
 * Inserts the notifications (data set and trip ids resolved from the sets inserted earlier in the
 * transaction) and one pending delivery per active delivery of each subscription. A ONETIME
 * subscription is claimed by marking it deleted in the same statement: of two transactions that
 * both saw it fire (two vehicles of one account), only the one whose update finds it undeleted
 * writes its notification.
 */
export async function insertDataNotifications(tx: Tx, input: { environment: Environment; vehicleId: number; accountId: number; notifications: PendingNotification[]; setTimes: string[] }): Promise<void> {
  const list = input.notifications;
  if (list.length === 0) return;
  await run(
    tx,
    `with u as (
       select * from unnest($4::int[], $5::int[], $6::text[], $7::timestamptz[], $8::boolean[], $9::text[]) with ordinality as u(sub, app, type, set_at, onetime, body, ord)
     ), claimed as (
       update subscriptions set deleted_at = now()
        where id in (select sub from u where onetime) and deleted_at is null
        returning id
     ), n as (
       insert into notifications (environment, subscription_id, app_id, account_id, vehicle_id, data_set_id, trip_id, type, event_at, body)
       select $1, u.sub, u.app, $3, $2, d.id, d.trip_id, u.type, d.recorded_at, u.body::jsonb
         from u join data_sets d on d.vehicle_id = $2 and d.recorded_at = u.set_at
        where not u.onetime or u.sub in (select id from claimed)
        order by u.ord
       returning id, subscription_id
     )
     insert into notification_deliveries (notification_id, delivery_id)
     select n.id, sd.id from n join subscription_deliveries sd on sd.subscription_id = n.subscription_id and sd.active`,
    [
      input.environment,
      input.vehicleId,
      input.accountId,
      tx.array(list.map((n) => n.subscriptionId)),
      tx.array(list.map((n) => n.appId)),
      tx.array(list.map((n) => n.type)),
      tx.array(list.map((n) => input.setTimes[n.set]!)),
      tx.array(list.map((n) => n.onetime)),
      tx.array(list.map((n) => JSON.stringify(n.body))),
    ],
  );
}

export async function saveSubscriptionStates(tx: Tx, vehicleId: number, states: Map<number, SubscriptionState>): Promise<void> {
  if (states.size === 0) return;
  const entries = [...states];
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  await run(
    tx,
    `insert into subscription_states (subscription_id, vehicle_id, met, evaluated_at, notified_at, anchor_latitude, anchor_longitude)
     select s.sub, $1, s.met, s.evaluated_at, s.notified_at, s.lat, s.lon
       from unnest($2::int[], $3::boolean[], $4::timestamptz[], $5::timestamptz[], $6::float8[], $7::float8[]) as s(sub, met, evaluated_at, notified_at, lat, lon)
     on conflict (subscription_id, vehicle_id) do update set met = excluded.met, evaluated_at = excluded.evaluated_at,
       notified_at = excluded.notified_at, anchor_latitude = excluded.anchor_latitude, anchor_longitude = excluded.anchor_longitude`,
    [
      vehicleId,
      tx.array(entries.map(([id]) => id)),
      tx.array(entries.map(([, s]) => s.met)),
      tx.array(entries.map(([, s]) => iso(s.evaluatedAt))),
      tx.array(entries.map(([, s]) => iso(s.notifiedAt))),
      tx.array(entries.map(([, s]) => s.anchor?.latitude ?? null)),
      tx.array(entries.map(([, s]) => s.anchor?.longitude ?? null)),
    ],
  );
}
