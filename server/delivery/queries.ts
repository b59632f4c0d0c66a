import { and, eq, gt, inArray, isNull, or } from "drizzle-orm";
import { db, rawSql, type Tx } from "@/db/client";
import { appSigningSecrets, notifications, subscriptionDeliveries } from "@/db/schema";
import type { NotificationRow } from "@/server/notifications/serialize";

// The delivery worker's SQL: claiming rows, loading what sending them needs, and the few writes
// that cannot wait for the batch's end (a rotated refresh token, a moved postUrl).

const bigintArray = (ids: number[]) => `{${ids.map((id) => Math.trunc(id)).join(",")}}`;

export type Claimed = { id: number; notificationId: number; deliveryId: number; attempts: number; failingSince: Date | null };

/**
 * Takes a lease on the given notification_deliveries rows that are PENDING, due, and not leased
 * by a live worker. Rows of a delivery deactivated meanwhile become FAILED instead. The row lock
 * (SKIP LOCKED) makes two workers claiming the same id at once pick one winner.
 */
export async function claimDeliveries({ ids, owner, leaseSeconds }: { ids: number[]; owner: string; leaseSeconds: number }): Promise<Claimed[]> {
  if (ids.length === 0) return [];
  const sql = rawSql();
  const rows = await sql<{ id: string; notification_id: string; delivery_id: number; attempts: number; failing_since: Date | null }[]>`
    with candidates as (
      select nd.id, nd.notification_id, nd.delivery_id, sd.active
      from notification_deliveries nd join subscription_deliveries sd on sd.id = nd.delivery_id
      where nd.id = any(${bigintArray(ids)}::bigint[]) and nd.status = 'PENDING'
      for update of nd skip locked
    ), dropped as (
      update notification_deliveries set status = 'FAILED' where id in (select id from candidates where not active) returning id
    ), dropped_jobs as (
      delete from delivery_jobs where notification_delivery_id in (select id from dropped)
    ), claimed as (
      insert into delivery_jobs as j (notification_delivery_id, lease_owner, lease_until)
      select id, ${owner}, now() + make_interval(secs => ${leaseSeconds}) from candidates where active
      on conflict (notification_delivery_id) do update set lease_owner = excluded.lease_owner, lease_until = excluded.lease_until
        where j.next_attempt_at <= now() and (j.lease_until is null or j.lease_until < now())
      returning j.notification_delivery_id, j.attempts, j.failing_since
    )
    select c.id, c.notification_id, c.delivery_id, claimed.attempts, claimed.failing_since
    from claimed join candidates c on c.id = claimed.notification_delivery_id`;
  return rows.map((r) => ({ id: Number(r.id), notificationId: Number(r.notification_id), deliveryId: r.delivery_id, attempts: r.attempts, failingSince: r.failing_since ? new Date(r.failing_since) : null }));
}

export type DeliveryRow = typeof subscriptionDeliveries.$inferSelect;

export async function loadForSending(claimed: Claimed[]): Promise<{ notifications: Map<number, NotificationRow>; deliveries: Map<number, DeliveryRow>; secrets: Map<number, string[]> }> {
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
        .where(and(inArray(appSigningSecrets.appId, appIds), or(isNull(appSigningSecrets.expiresAt), gt(appSigningSecrets.expiresAt, now))))
        .orderBy(appSigningSecrets.id)
    : [];
  const secrets = new Map<number, string[]>();
  for (const row of secretRows) secrets.set(row.appId, [...(secrets.get(row.appId) ?? []), row.secret]);
  return {
    notifications: new Map(notificationRows.map((n) => [n.id, n])),
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
export async function withLockedCredentials<T>(deliveryId: number, fn: (stored: LockedCredentials | null, tx: Tx) => Promise<T>): Promise<T> {
  return db().transaction(async (tx) => {
    const [row] = await tx
      .select({ active: subscriptionDeliveries.active, deactivationReason: subscriptionDeliveries.deactivationReason, oauth2: subscriptionDeliveries.oauth2 })
      .from(subscriptionDeliveries)
      .where(eq(subscriptionDeliveries.id, deliveryId))
      .for("no key update");
    return fn(row ?? null, tx);
  });
}

/** Refresh tokens rotate: the new pair is stored at once, before anything else can fail. */
export async function updateOAuth2Tokens(tx: Tx, { deliveryId, oauth2 }: { deliveryId: number; oauth2: Record<string, unknown> }): Promise<void> {
  await tx.update(subscriptionDeliveries).set({ oauth2 }).where(eq(subscriptionDeliveries.id, deliveryId));
}

/** A failed refresh deactivates the delivery at once, so that no one waiting for it tries the spent refresh token again. */
export async function deactivateLocked(tx: Tx, { deliveryId, reason, at }: { deliveryId: number; reason: string; at: Date }): Promise<void> {
  await tx
    .update(subscriptionDeliveries)
    .set({ active: false, deactivationReason: reason, deactivatedAt: at })
    .where(and(eq(subscriptionDeliveries.id, deliveryId), eq(subscriptionDeliveries.active, true)));
}

/** Ids the sweeper hands back to the queue: leases of vanished workers, lost retries, rows never claimed. */
export async function findStranded({ olderThanSeconds, limit }: { olderThanSeconds: number; limit: number }): Promise<number[]> {
  const sql = rawSql();
  const rows = await sql<{ id: string }[]>`
    (select notification_delivery_id as id from delivery_jobs where lease_until < now() limit ${limit})
    union
    (select notification_delivery_id from delivery_jobs where lease_until is null and next_attempt_at < now() - make_interval(secs => ${olderThanSeconds}) limit ${limit})
    union
    (select nd.id from notification_deliveries nd
      where nd.status = 'PENDING' and nd.created_at < now() - make_interval(secs => ${olderThanSeconds})
        and not exists (select 1 from delivery_jobs j where j.notification_delivery_id = nd.id)
      limit ${limit})`;
  return rows.map((r) => Number(r.id));
}

export async function releaseLeases({ ids, owner }: { ids: number[]; owner: string }): Promise<void> {
  await rawSql()`update delivery_jobs set lease_owner = null, lease_until = null where notification_delivery_id = any(${bigintArray(ids)}::bigint[]) and lease_owner = ${owner}`;
}

/** Heartbeat: a live worker keeps its leases; only a dead or stalled one loses them. */
export async function extendLeases({ ids, owner, leaseSeconds }: { ids: number[]; owner: string; leaseSeconds: number }): Promise<void> {
  await rawSql()`update delivery_jobs set lease_until = now() + make_interval(secs => ${leaseSeconds}) where notification_delivery_id = any(${bigintArray(ids)}::bigint[]) and lease_owner = ${owner}`;
}

/** A stopping worker's leases, given back at once (a drain); the ids, to be queued again. */
export async function releaseOwnLeases(owner: string): Promise<number[]> {
  const rows = await rawSql()<{ id: string }[]>`
    update delivery_jobs set lease_owner = null, lease_until = null where lease_owner = ${owner} and lease_until is not null
    returning notification_delivery_id as id`;
  return rows.map((r) => Number(r.id));
}
