import { and, count, eq, gte, inArray, ne, sql } from "drizzle-orm";
import { db, type Tx } from "@/db/client";
import { notificationDeliveries, notifications, subscriptionDeliveries, type Environment } from "@/db/schema";
import { QUEUE_CHANNEL } from "./claims";

// Sending finished notification_deliveries rows again (partner console). A row goes back to
// PENDING with a fresh place in the queue (due now, no attempts, no failing_since, no lease, as a
// new row has) and the workers are woken; the claim then sends it like a new row. Rows still
// PENDING are left alone: they are queued already. Rows of a deactivated delivery are not
// re-queued: the claim would only fail them again. Each call is one transaction.

/** The most rows one "resend all failed" re-queues; the partner clicks again for the rest. */
const RESEND_LIMIT = 1000;

export type Resent = { requeued: number; skippedInactive: number; more: boolean };

export async function resendNotificationDeliveries({ notificationId }: { notificationId: number }): Promise<Resent> {
  return db().transaction(async (tx) => {
    const rows = await tx
      .select({ id: notificationDeliveries.id, active: subscriptionDeliveries.active })
      .from(notificationDeliveries)
      .innerJoin(subscriptionDeliveries, eq(subscriptionDeliveries.id, notificationDeliveries.deliveryId))
      .where(
        and(eq(notificationDeliveries.notificationId, notificationId), ne(notificationDeliveries.status, "PENDING")),
      )
      .orderBy(notificationDeliveries.id)
      .for("update", { of: notificationDeliveries });
    const ids = rows.filter((r) => r.active).map((r) => r.id);
    await requeue(tx, ids);
    return { requeued: ids.length, skippedInactive: rows.length - ids.length, more: false };
  });
}

/** FAILED rows of the app's notifications made at or after `since`, oldest first, at most RESEND_LIMIT. */
export async function resendFailedSince({
  appId,
  environment,
  since,
}: {
  appId: number;
  environment: Environment;
  since: Date;
}): Promise<Resent> {
  return db().transaction(async (tx) => {
    const failed = (active: boolean) =>
      and(
        eq(notifications.appId, appId),
        eq(notifications.environment, environment),
        gte(notifications.createdAt, since),
        eq(notificationDeliveries.status, "FAILED"),
        eq(subscriptionDeliveries.active, active),
      );
    const rows = await tx
      .select({ id: notificationDeliveries.id })
      .from(notificationDeliveries)
      .innerJoin(notifications, eq(notifications.id, notificationDeliveries.notificationId))
      .innerJoin(subscriptionDeliveries, eq(subscriptionDeliveries.id, notificationDeliveries.deliveryId))
      .where(failed(true))
      .orderBy(notificationDeliveries.id)
      .limit(RESEND_LIMIT + 1)
      .for("update", { of: notificationDeliveries, skipLocked: true });
    const ids = rows.slice(0, RESEND_LIMIT).map((r) => r.id);
    await requeue(tx, ids);
    const [inactive] = await tx
      .select({ n: count() })
      .from(notificationDeliveries)
      .innerJoin(notifications, eq(notifications.id, notificationDeliveries.notificationId))
      .innerJoin(subscriptionDeliveries, eq(subscriptionDeliveries.id, notificationDeliveries.deliveryId))
      .where(failed(false));
    return { requeued: ids.length, skippedInactive: inactive?.n ?? 0, more: rows.length > RESEND_LIMIT };
  });
}

async function requeue(tx: Tx, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await tx
    .update(notificationDeliveries)
    .set({
      status: "PENDING",
      attempts: 0,
      nextAttemptAt: sql`now()`,
      failingSince: null,
      leaseOwner: null,
      leaseUntil: null,
    })
    .where(inArray(notificationDeliveries.id, ids));
  await tx.execute(sql`select pg_notify(${QUEUE_CHANNEL}, '')`);
}
