import { sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import type { Environment } from "@/db/schema";
import { enqueueDeliveries } from "./pending-deliveries";

// VEHICLEDISCONNECTED for vehicles whose device went silent (docs/devices.md#silent-devices): no data
// set carries it, so it is written here rather than by ingest's evaluation, to the subscriptions ingest
// would notify (the vehicle's own and its account's, of apps whose grant is active and has the data
// scope: ingest-queries.ts liveForVehicle, whose rule for a data event this repeats), with ONETIME claimed and minimumTime applied as
// for account events, and the deliveries enqueued by the same statement. recordedWaypoint is the
// vehicle's last position (none while its location is paused); recordedEvent is true.

export type SilentVehicle = { environment: Environment; vehicleId: number; silentAt: Date };

export async function notifySilentVehicles(tx: Executor, silent: SilentVehicle[]): Promise<number> {
  if (silent.length === 0) return 0;
  const rows = await tx.execute<{ id: number }>(sql`
    with silent as (
      select * from unnest(${pgArray(silent.map((s) => s.environment))}::text[], ${pgArray(silent.map((s) => String(s.vehicleId)))}::int[],
                           ${pgArray(silent.map((s) => s.silentAt.toISOString()))}::timestamptz[]) as x(environment, vehicle_id, at)
    ), subs as (
      select s.id, s.app_id, s.client_id, s.notification_period, s.minimum_time, silent.environment, v.id as vehicle_id, v.account_id, silent.at,
             case when v.location_paused or v.last_latitude is null then null
                  else jsonb_build_object('timestamp', to_char(v.last_waypoint_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                                          'latitude', v.last_latitude, 'longitude', v.last_longitude) end as waypoint
        from silent
        join vehicles v on v.id = silent.vehicle_id
        join subscriptions s on s.type = 'VEHICLEDISCONNECTED' and s.deleted_at is null
         and (s.vehicle_id = v.id or (s.scope = 'ACCOUNT' and s.account_id = v.account_id))
         and exists (select 1 from account_grants g where g.account_id = v.account_id and g.app_id = s.app_id
                        and g.revoked_at is null and g.data_scope)
       where s.minimum_time = 0 or not exists (
               select 1 from notifications n
                where n.subscription_id = s.id and not n.test and n.event_at > silent.at - make_interval(mins => s.minimum_time))
    ), claimed as (
      update subscriptions set deleted_at = now()
       where id in (select id from subs where notification_period = 'ONETIME') and deleted_at is null
      returning id
    ), n as (
      insert into notifications (environment, subscription_id, app_id, account_id, vehicle_id, type, event_at, body)
      select distinct on (subs.id, subs.vehicle_id) subs.environment::environment, subs.id, subs.app_id, subs.account_id, subs.vehicle_id,
             'VEHICLEDISCONNECTED', subs.at,
             jsonb_build_object('minimumTime', subs.minimum_time, 'notificationPeriod', subs.notification_period,
                                'creatorClientId', subs.client_id, 'recordedWaypoint', subs.waypoint, 'recordedEvent', true)
        from subs
       where subs.notification_period <> 'ONETIME' or subs.id in (select id from claimed)
      returning id, subscription_id
    ), nd as (${enqueueDeliveries(sql)})
    select id from n`);
  return rows.length;
}

// A text[] literal of plain values (environments, integers, ISO times: no quotes or commas in them).
const pgArray = (values: string[]) => `{${values.join(",")}}`;
