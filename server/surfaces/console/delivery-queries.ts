import { asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { deliveryAttempts, emailOutbox, notificationDeliveries, subscriptionDeliveries, vehicles } from "@/db/schema";

// The console's reads of the delivery tables. Callers have checked that the app is the partner's
// and that the notification belongs to it.

const pending = sql`${notificationDeliveries.status} = 'PENDING'`;

export async function deliveriesOfNotification(db: Executor, { notificationId }: { notificationId: number }) {
  return db
    .select({
      id: notificationDeliveries.id,
      status: notificationDeliveries.status,
      createdAt: notificationDeliveries.createdAt,
      deliveryId: subscriptionDeliveries.id,
      type: subscriptionDeliveries.type,
      postUrl: subscriptionDeliveries.postUrl,
      recipient: subscriptionDeliveries.recipient,
      active: subscriptionDeliveries.active,
      deactivationReason: subscriptionDeliveries.deactivationReason,
      // The queue's columns say something only while the row is pending.
      attempts: sql<number | null>`case when ${pending} then ${notificationDeliveries.attempts} end`,
      nextAttemptAt: sql<Date | null>`case when ${pending} then ${notificationDeliveries.nextAttemptAt} end`.mapWith(
        notificationDeliveries.nextAttemptAt,
      ),
    })
    .from(notificationDeliveries)
    .innerJoin(subscriptionDeliveries, eq(subscriptionDeliveries.id, notificationDeliveries.deliveryId))
    .where(eq(notificationDeliveries.notificationId, notificationId))
    .orderBy(asc(subscriptionDeliveries.position), asc(notificationDeliveries.id));
}

export async function attemptsOf(db: Executor, { notificationDeliveryIds }: { notificationDeliveryIds: number[] }) {
  if (notificationDeliveryIds.length === 0) return [];
  return db
    .select()
    .from(deliveryAttempts)
    .where(inArray(deliveryAttempts.notificationDeliveryId, notificationDeliveryIds))
    .orderBy(asc(deliveryAttempts.id))
    .limit(1000);
}

export const OUTBOX_PAGE_SIZE = 100;

export async function outboxOf(db: Executor, { appId }: { appId: number }) {
  return db
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.appId, appId))
    .orderBy(desc(emailOutbox.id))
    .limit(OUTBOX_PAGE_SIZE);
}

/** An account subscription's test notification needs one of the account's vehicles: its first. */
export async function firstVehicleOf(db: Executor, { accountId }: { accountId: number }): Promise<number | null> {
  const [row] = await db
    .select({ id: vehicles.id })
    .from(vehicles)
    .where(eq(vehicles.accountId, accountId))
    .orderBy(asc(vehicles.id))
    .limit(1);
  return row?.id ?? null;
}
