import { and, asc, eq, sql } from "drizzle-orm";
import { db } from "@/db/client";
import { pushSubscriptions } from "@/db/schema";

// The push subscriptions' SQL: one row per endpoint, each of one account.

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

/**
 * Stores the endpoint for the account, or renews its keys when the account has it already. Null when
 * another account holds the endpoint: one statement decides, so two sign-ins at once cannot both win.
 */
export async function upsertSubscription(values: {
  accountId: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  userAgentLabel: string | null;
}): Promise<PushSubscriptionRow | null> {
  const [row] = await db()
    .insert(pushSubscriptions)
    .values(values)
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: {
        p256dh: sql`excluded.p256dh`,
        auth: sql`excluded.auth`,
        userAgentLabel: sql`excluded.user_agent_label`,
      },
      setWhere: eq(pushSubscriptions.accountId, values.accountId),
    })
    .returning();
  return row ?? null;
}

/** Removes the account's subscription to the endpoint; false when the account has none such. */
export async function deleteSubscription({ accountId, endpoint }: { accountId: number; endpoint: string }) {
  const rows = await db()
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.accountId, accountId), eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id });
  return rows.length > 0;
}

export function subscriptionsOf({ accountId }: { accountId: number }): Promise<PushSubscriptionRow[]> {
  return db()
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.accountId, accountId))
    .orderBy(asc(pushSubscriptions.id));
}

/** A push service said the subscription is gone (404, 410): by id, so a renewed row of the endpoint stays. */
export async function deleteSubscriptionById({ id }: { id: number }): Promise<void> {
  await db().delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
}

export async function markDelivered({ id }: { id: number }): Promise<void> {
  await db()
    .update(pushSubscriptions)
    .set({ lastSuccessAt: sql`now()` })
    .where(eq(pushSubscriptions.id, id));
}
