import { sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import type { Environment } from "@/db/schema";
import { enqueueDeliveries } from "./pending-deliveries";

// Notifications that come from the API rather than from device data (docs/subscriptions.md): a vehicle
// added to or deleted from an account (account scope), and an app's access revoked by a driver
// (system scope, AUTHORIZATIONSTATUS REVOKED). Each is written by one statement on the caller's
// transaction, so the change and its notifications commit together. The statement also applies
// ONETIME (claim by marking deleted) and minimumTime (no other real notification of the
// subscription in the last minimumTime minutes).

type Match = {
  environment: Environment;
  type: "VEHICLECREATED" | "VEHICLEDELETED" | "AUTHORIZATIONSTATUS";
  where: ReturnType<typeof sql>;
  accountId: number;
  vehicleId: number | null;
  at: Date;
  extra: Record<string, unknown>;
};

async function notify(tx: Executor, m: Match): Promise<void> {
  await tx.execute(sql`
    with subs as (
      select s.id, s.app_id, s.client_id, s.notification_period, s.minimum_time
        from subscriptions s
       where s.environment = ${m.environment} and s.type = ${m.type} and s.deleted_at is null and ${m.where}
         and (s.minimum_time = 0 or not exists (
               select 1 from notifications n
                where n.subscription_id = s.id and not n.test and n.event_at > ${m.at.toISOString()}::timestamptz - make_interval(mins => s.minimum_time)))
    ), claimed as (
      update subscriptions set deleted_at = now()
       where id in (select id from subs where notification_period = 'ONETIME') and deleted_at is null
      returning id
    ), n as (
      insert into notifications (environment, subscription_id, app_id, account_id, vehicle_id, type, event_at, body)
      select ${m.environment}, subs.id, subs.app_id, ${m.accountId}, ${m.vehicleId}, ${m.type}, ${m.at.toISOString()}::timestamptz,
             jsonb_build_object('minimumTime', subs.minimum_time, 'notificationPeriod', subs.notification_period, 'creatorClientId', subs.client_id)
               || ${JSON.stringify(m.extra)}::jsonb
        from subs
       where subs.notification_period <> 'ONETIME' or subs.id in (select id from claimed)
      returning id, subscription_id
    )
    ${enqueueDeliveries(sql)}`);
}

// Apps that still have access to the account hear about its vehicles.
const stillGranted = (accountId: number) =>
  sql`exists (select 1 from account_grants g where g.account_id = ${accountId} and g.app_id = s.app_id and g.revoked_at is null)`;

export async function notifyVehicleEvent(
  tx: Executor,
  e: {
    environment: Environment;
    type: "VEHICLECREATED" | "VEHICLEDELETED";
    accountId: number;
    vehicleId: number;
    at: Date;
  },
): Promise<void> {
  await notify(tx, {
    environment: e.environment,
    type: e.type,
    where: sql`s.scope = 'ACCOUNT' and s.account_id = ${e.accountId} and ${stillGranted(e.accountId)}`,
    accountId: e.accountId,
    vehicleId: e.vehicleId,
    at: e.at,
    extra: {},
  });
}

export async function notifyAuthorizationRevoked(
  tx: Executor,
  e: { environment: Environment; appId: number; accountId: number; at: Date },
): Promise<void> {
  await notify(tx, {
    environment: e.environment,
    type: "AUTHORIZATIONSTATUS",
    where: sql`s.scope = 'SYSTEM' and s.app_id = ${e.appId}`,
    accountId: e.accountId,
    vehicleId: null,
    at: e.at,
    extra: { authorizationStatus: "REVOKED" },
  });
}
