import { and, asc, count, desc, eq, inArray, isNull, notInArray, sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { subscriptionDeliveries, subscriptions, type Environment } from "@/db/schema";
import type { Page } from "@/common/http/paging";
import type { DeliveryRow, SubscriptionRow } from "./serialize";

/** Where a subscription lives (docs/subscriptions.md): under a vehicle, an account, or the system. */
export type Target =
  | { scope: "VEHICLE"; vehicleId: number; accountId: number }
  | { scope: "ACCOUNT"; accountId: number }
  | { scope: "SYSTEM" };

/** Subscriptions are visible only to the app that created them, in its environment. */
export type Owner = { environment: Environment; appId: number };

function targetWhere(owner: Owner, target: Target): SQL {
  const base = [
    eq(subscriptions.environment, owner.environment),
    eq(subscriptions.appId, owner.appId),
    eq(subscriptions.scope, target.scope),
  ];
  if (target.scope === "VEHICLE") base.push(eq(subscriptions.vehicleId, target.vehicleId));
  if (target.scope === "ACCOUNT") base.push(eq(subscriptions.accountId, target.accountId));
  return and(...base)!;
}

export async function listSubscriptionRows(
  db: Executor,
  q: { owner: Owner; target: Target; type?: string; page: Page; order: "asc" | "desc" },
) {
  const where = and(targetWhere(q.owner, q.target), q.type ? eq(subscriptions.type, q.type) : undefined);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(subscriptions)
      .where(where)
      .orderBy(q.order === "asc" ? asc(subscriptions.id) : desc(subscriptions.id))
      .limit(q.page.limit)
      .offset(q.page.offset),
    db.select({ n: count() }).from(subscriptions).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function findSubscriptionRow(
  db: Executor,
  q: { owner: Owner; target: Target; id: number; forUpdate?: boolean },
): Promise<SubscriptionRow | null> {
  const query = db
    .select()
    .from(subscriptions)
    .where(and(targetWhere(q.owner, q.target), eq(subscriptions.id, q.id)));
  // FOR NO KEY UPDATE, not FOR UPDATE: it serialises the subscription's updates without blocking
  // the foreign-key checks (FOR KEY SHARE) of rows that ingest writes for it meanwhile, which could
  // otherwise deadlock with the removal of a delivery that ingest holds (docs/delivery.md).
  const [row] = await (q.forUpdate ? query.for("no key update") : query);
  return row ?? null;
}

export async function deliveriesOf(db: Executor, subscriptionIds: number[]): Promise<Map<number, DeliveryRow[]>> {
  const byId = new Map<number, DeliveryRow[]>(subscriptionIds.map((id) => [id, []]));
  if (subscriptionIds.length === 0) return byId;
  const rows = await db
    .select()
    .from(subscriptionDeliveries)
    .where(inArray(subscriptionDeliveries.subscriptionId, subscriptionIds))
    .orderBy(asc(subscriptionDeliveries.subscriptionId), asc(subscriptionDeliveries.position));
  for (const row of rows) byId.get(row.subscriptionId)!.push(row);
  return byId;
}

export type NewSubscription = typeof subscriptions.$inferInsert;
export type NewDelivery = Omit<typeof subscriptionDeliveries.$inferInsert, "subscriptionId" | "position">;

export async function insertSubscriptionRow(db: Executor, values: NewSubscription): Promise<SubscriptionRow> {
  const [row] = await db.insert(subscriptions).values(values).returning();
  return row!;
}

export async function updateSubscriptionRow(db: Executor, id: number, values: Partial<NewSubscription>): Promise<void> {
  if (Object.keys(values).length === 0) return;
  await db.update(subscriptions).set(values).where(eq(subscriptions.id, id));
}

/**
 * Makes the subscription's deliveries exactly `wanted`, in order: an entry with the id of an
 * existing delivery updates it (keeping whether it is active), one without an id is added, and
 * existing deliveries not named are removed.
 */
export async function replaceDeliveries(
  db: Executor,
  subscriptionId: number,
  wanted: (NewDelivery & { id?: number })[],
): Promise<void> {
  const keep = wanted.flatMap((d) => (d.id === undefined ? [] : [d.id]));
  const going = and(
    eq(subscriptionDeliveries.subscriptionId, subscriptionId),
    keep.length ? notInArray(subscriptionDeliveries.id, keep) : undefined,
  );
  // Locked in id order first, the order in which writers of notifications lock them
  // (enqueueDeliveries, server/notifications/pending-deliveries.ts): removing two deliveries cannot
  // deadlock with a notification holding both, and no new row can be queued for them from here on.
  const removed = await db
    .select({ id: subscriptionDeliveries.id })
    .from(subscriptionDeliveries)
    .where(going)
    .orderBy(asc(subscriptionDeliveries.id))
    .for("update");
  // Then their pending rows, which the removal's trigger deletes, in id order: a delivery worker
  // recording a batch locks its rows so (docs/delivery.md#lock-order). Left to the trigger, they were
  // taken in whatever order its plan read them, and met the worker's halfway: a deadlock.
  if (removed.length > 0) {
    const ids = removed.map((r) => r.id);
    await db.execute(sql`select count(*) from (select 1 from notification_deliveries
       where status = 'PENDING' and delivery_id in ${ids} order by id for update) pending`);
    await db.delete(subscriptionDeliveries).where(inArray(subscriptionDeliveries.id, ids));
  }
  for (const [position, { id, ...fields }] of wanted.entries()) {
    if (id === undefined) {
      await db.insert(subscriptionDeliveries).values({ ...fields, subscriptionId, position });
    } else {
      const { active: _active, deactivationReason: _reason, deactivatedAt: _at, ...editable } = fields;
      await db
        .update(subscriptionDeliveries)
        .set({ ...editable, position })
        .where(and(eq(subscriptionDeliveries.id, id), eq(subscriptionDeliveries.subscriptionId, subscriptionId)));
    }
  }
}

export async function markSubscriptionDeleted(db: Executor, id: number): Promise<void> {
  await db
    .update(subscriptions)
    .set({ deletedAt: new Date() })
    .where(and(eq(subscriptions.id, id), isNull(subscriptions.deletedAt)));
}

export async function countSubscriptionsOfApp(db: Executor, q: Owner): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(subscriptions)
    .where(and(eq(subscriptions.appId, q.appId), eq(subscriptions.environment, q.environment)));
  return row?.n ?? 0;
}
