import { and, eq, gt, inArray, isNull, or } from "drizzle-orm";
import { db, type Tx } from "@/db/client";
import { appSigningSecrets, notifications, subscriptionDeliveries } from "@/db/schema";
import type { NotificationRow } from "@/server/notifications/serialize";
import { precisionsOf } from "@/server/notifications/precision";
import type { LocationPrecision } from "@/common/oauth/grant-scope";
import type { Claimed } from "./claims";

// The delivery worker's drizzle reads and writes: loading what sending claimed rows needs, and the
// few writes that cannot wait for the batch's end (a rotated refresh token, a moved postUrl). The
// claim and the leases are in claims.ts (postgres.js, the worker's hot path).

export type DeliveryRow = typeof subscriptionDeliveries.$inferSelect;

export async function loadForSending(claimed: Claimed[]): Promise<{
  notifications: Map<number, NotificationRow>;
  /** Each notification's location precision for its app (docs/oauth.md#scopes). */
  precisionOf: (row: NotificationRow) => LocationPrecision;
  deliveries: Map<number, DeliveryRow>;
  secrets: Map<number, string[]>;
}> {
  const notificationIds = [...new Set(claimed.map((c) => c.notificationId))];
  const deliveryIds = [...new Set(claimed.map((c) => c.deliveryId))];
  const [notificationRows, deliveryRows] = await Promise.all([
    db().select().from(notifications).where(inArray(notifications.id, notificationIds)),
    db().select().from(subscriptionDeliveries).where(inArray(subscriptionDeliveries.id, deliveryIds)),
  ]);
  const appIds = [...new Set(notificationRows.map((n) => n.appId))];
  const now = new Date();
  const secretRows = appIds.length
    ? await db()
        .select({ appId: appSigningSecrets.appId, secret: appSigningSecrets.secret })
        .from(appSigningSecrets)
        .where(
          and(
            inArray(appSigningSecrets.appId, appIds),
            or(isNull(appSigningSecrets.expiresAt), gt(appSigningSecrets.expiresAt, now)),
          ),
        )
        .orderBy(appSigningSecrets.id)
    : [];
  const secrets = new Map<number, string[]>();
  for (const row of secretRows) secrets.set(row.appId, [...(secrets.get(row.appId) ?? []), row.secret]);
  return {
    notifications: new Map(notificationRows.map((n) => [n.id, n])),
    precisionOf: await precisionsOf(notificationRows),
    deliveries: new Map(deliveryRows.map((d) => [d.id, d])),
    secrets,
  };
}

/** A 301/308 moved the receiver for good. */
export async function updatePostUrl({ deliveryId, postUrl }: { deliveryId: number; postUrl: string }): Promise<void> {
  await db().update(subscriptionDeliveries).set({ postUrl }).where(eq(subscriptionDeliveries.id, deliveryId));
}

export type LockedCredentials = { active: boolean; deactivationReason: string | null; oauth2: unknown };

/**
 * Runs `fn` in a transaction that holds the delivery's row lock (FOR NO KEY UPDATE), with the
 * delivery's stored state (null once it was removed): one token refresh per delivery at a time
 * (oauth2-single-flight.ts). The lock does not block ingest queueing notifications to the
 * delivery (FOR KEY SHARE); it makes an edit or removal of the delivery wait for the refresh.
 */
export async function withLockedCredentials<T>(
  deliveryId: number,
  fn: (stored: LockedCredentials | null, tx: Tx) => Promise<T>,
): Promise<T> {
  return db().transaction(async (tx) => {
    const [row] = await tx
      .select({
        active: subscriptionDeliveries.active,
        deactivationReason: subscriptionDeliveries.deactivationReason,
        oauth2: subscriptionDeliveries.oauth2,
      })
      .from(subscriptionDeliveries)
      .where(eq(subscriptionDeliveries.id, deliveryId))
      .for("no key update");
    return fn(row ?? null, tx);
  });
}

/** Refresh tokens rotate: the new pair is stored at once, before anything else can fail. */
export async function updateOAuth2Tokens(
  tx: Tx,
  { deliveryId, oauth2 }: { deliveryId: number; oauth2: Record<string, unknown> },
): Promise<void> {
  await tx.update(subscriptionDeliveries).set({ oauth2 }).where(eq(subscriptionDeliveries.id, deliveryId));
}

/** A failed refresh deactivates the delivery at once, so that no one waiting for it tries the spent refresh token again. */
export async function deactivateLocked(
  tx: Tx,
  { deliveryId, reason, at }: { deliveryId: number; reason: string; at: Date },
): Promise<void> {
  await tx
    .update(subscriptionDeliveries)
    .set({ active: false, deactivationReason: reason, deactivatedAt: at })
    .where(and(eq(subscriptionDeliveries.id, deliveryId), eq(subscriptionDeliveries.active, true)));
}
