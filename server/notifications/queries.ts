import { and, asc, count, desc, eq, exists, sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { notifications, subscriptions, type Environment } from "@/db/schema";
import type { Page } from "@/common/http/paging";
import { enqueueDeliveries } from "./pending-deliveries";
import type { NotificationRow } from "./serialize";

/** Which notifications a read covers: always one app's, narrowed by vehicle, account or subscription. */
export type NotificationFilter = {
  environment: Environment;
  appId: number;
  vehicleId?: number;
  accountId?: number;
  subscriptionId?: number;
  type?: string;
};

function filterWhere(f: NotificationFilter): SQL {
  return and(
    eq(notifications.environment, f.environment),
    eq(notifications.appId, f.appId),
    f.vehicleId !== undefined ? eq(notifications.vehicleId, f.vehicleId) : undefined,
    f.accountId !== undefined ? eq(notifications.accountId, f.accountId) : undefined,
    f.subscriptionId !== undefined ? eq(notifications.subscriptionId, f.subscriptionId) : undefined,
    f.type !== undefined ? eq(notifications.type, f.type) : undefined,
  )!;
}

// Newest event first by default (docs/api.md#paging: lists sort by the resource's time field).
export async function listNotificationRows(
  db: Executor,
  q: { filter: NotificationFilter; page: Page; order: "asc" | "desc" },
) {
  const where = filterWhere(q.filter);
  const by = q.order === "asc" ? asc : desc;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(notifications)
      .where(where)
      .orderBy(by(notifications.eventAt), by(notifications.id))
      .limit(q.page.limit)
      .offset(q.page.offset),
    db.select({ n: count() }).from(notifications).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function findNotificationRow(
  db: Executor,
  q: { filter: NotificationFilter; id: number },
): Promise<NotificationRow | null> {
  const [row] = await db
    .select()
    .from(notifications)
    .where(and(filterWhere(q.filter), eq(notifications.id, q.id)));
  return row ?? null;
}

export async function insertNotificationRow(
  db: Executor,
  values: typeof notifications.$inferInsert,
): Promise<NotificationRow> {
  const [row] = await db.insert(notifications).values(values).returning();
  return row!;
}

/** One pending delivery per active delivery of the subscription. */
export async function queueDeliveries(db: Executor, notificationId: number, subscriptionId: number): Promise<void> {
  await db.execute(
    sql`with n(id, subscription_id) as (values (${notificationId}::bigint, ${subscriptionId}::int)) ${enqueueDeliveries(sql)}`,
  );
}

/**
 * A deleted vehicle takes the notifications of its own (vehicle-scope) subscriptions along, and with
 * them their pending deliveries. Notifications of account subscriptions that name the vehicle (a
 * VEHICLECREATED, a WAYPOINT of an account-wide WAYPOINT subscription) belong to the account and
 * stay, deliveries included (docs/subscriptions.md#who-keeps-which-notifications).
 */
export async function deleteNotificationsOfVehicleSubscriptions(db: Executor, vehicleId: number): Promise<void> {
  // By the vehicle's index on notifications, then each one's subscription by its key.
  const ofVehicleScope = db
    .select({ one: sql`1` })
    .from(subscriptions)
    .where(and(eq(subscriptions.id, notifications.subscriptionId), eq(subscriptions.scope, "VEHICLE")));
  await db.delete(notifications).where(and(eq(notifications.vehicleId, vehicleId), exists(ofVehicleScope)));
}
