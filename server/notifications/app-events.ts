import { sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import type { Environment } from "@/db/schema";
import { enqueueDeliveries } from "./pending-deliveries";

// App events (docs/delivery.md#app-events): ACCESSREVOKED (a driver or the app ended the app's
// access to an account) and ACCOUNTDELETED (a driver deleted an account the app could reach).
// They are events of the app, not of a subscription the partner made, but they travel the same way
// as every notification: each is a `notifications` row, so the event feed shows it in commit order
// among the app's other events (its tx_id), and its delivery goes through the one queue, signed
// with the app's secret. The row's subscription is the app's hidden APP-scope subscription for the
// environment (one at most, unique index subscriptions_app_events_key), made here on first need;
// its one HTTP_POST delivery is the endpoint the partner set in the console (none: the event is in
// the feed only). Written on the caller's transaction, so the revocation or deletion and its event
// commit together.

const APP_EVENT_TYPES = ["ACCESSREVOKED", "ACCOUNTDELETED"] as const;
export type AppEventType = (typeof APP_EVENT_TYPES)[number];
export const isAppEvent = (type: string): type is AppEventType => (APP_EVENT_TYPES as readonly string[]).includes(type);

/** The hidden subscription's type (never an event type: nothing evaluates it). */
const APP_EVENTS_SUBSCRIPTION_TYPE = "APPEVENTS";

const intArray = (ids: number[]) => `{${ids.map((id) => Math.trunc(id)).join(",")}}`;

/** Makes the apps' APP-scope subscriptions in the environment where they are missing. */
export async function ensureAppEventSubscriptions(
  tx: Executor,
  { environment, appIds }: { environment: Environment; appIds: number[] },
): Promise<void> {
  if (appIds.length === 0) return;
  await tx.execute(sql`
    insert into subscriptions (environment, app_id, client_id, scope, type, notification_period)
    select ${environment}, c.app_id, c.client_id, 'APP', ${APP_EVENTS_SUBSCRIPTION_TYPE}, 'CONTINUOUS'
      from app_credentials c
     where c.app_id = any(${intArray(appIds)}::int[]) and c.environment = ${environment}
     order by c.app_id
    on conflict (app_id, environment) where scope = 'APP' do nothing`);
}

/**
 * Writes one app event per app and queues it to the app's endpoint. The body keeps the app's
 * client id; the account is the row's account_id: nothing else of the driver's is stored.
 */
export async function writeAppEvents(
  tx: Executor,
  e: { environment: Environment; type: AppEventType; accountId: number; appIds: number[]; at: Date },
): Promise<void> {
  if (e.appIds.length === 0) return;
  await ensureAppEventSubscriptions(tx, { environment: e.environment, appIds: e.appIds });
  await tx.execute(sql`
    with subs as (
      select s.id, s.app_id, s.client_id from subscriptions s
       where s.environment = ${e.environment} and s.scope = 'APP' and s.app_id = any(${intArray(e.appIds)}::int[])
    ), n as (
      insert into notifications (environment, subscription_id, app_id, account_id, vehicle_id, type, event_at, body)
      select ${e.environment}, subs.id, subs.app_id, ${e.accountId}, null, ${e.type}, ${e.at.toISOString()}::timestamptz,
             jsonb_build_object('minimumTime', 0, 'notificationPeriod', 'CONTINUOUS', 'creatorClientId', subs.client_id)
        from subs
       order by subs.app_id
      returning id, subscription_id
    )
    ${enqueueDeliveries(sql)}`);
}
