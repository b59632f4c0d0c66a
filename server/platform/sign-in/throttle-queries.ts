import { and, asc, inArray, lt, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { signInThrottles } from "@/db/schema";

// drizzle only: the sign-in throttle rows.

/** Locks the rows of `keys` (creating missing ones), in key order so that two attempts never deadlock. */
export async function lockThrottles(db: Executor, { keys }: { keys: string[] }) {
  await db
    .insert(signInThrottles)
    .values(keys.map((key) => ({ key })))
    .onConflictDoNothing();
  return db
    .select()
    .from(signInThrottles)
    .where(inArray(signInThrottles.key, keys))
    .orderBy(asc(signInThrottles.key))
    .for("update");
}

export async function saveThrottle(
  db: Executor,
  {
    key,
    failures,
    lastFailureAt,
    blockedUntil,
  }: { key: string; failures: number; lastFailureAt: Date; blockedUntil: Date | null },
) {
  await db
    .update(signInThrottles)
    .set({ failures, lastFailureAt, blockedUntil })
    .where(sql`${signInThrottles.key} = ${key}`);
}

export async function deleteThrottle(db: Executor, { key }: { key: string }) {
  await db.delete(signInThrottles).where(sql`${signInThrottles.key} = ${key}`);
}

/** Gives back one counted failure; the block goes when the count drops below `free`. */
export async function refundFailure(db: Executor, { key, free }: { key: string; free: number }) {
  await db
    .update(signInThrottles)
    .set({
      failures: sql`greatest(${signInThrottles.failures} - 1, 0)`,
      blockedUntil: sql`case when ${signInThrottles.failures} - 1 < ${free} then null else ${signInThrottles.blockedUntil} end`,
    })
    .where(sql`${signInThrottles.key} = ${key}`);
}

/** Rows nothing is remembered by any more: no block, last failure long ago. */
export async function deleteStaleThrottles(db: Executor, { before }: { before: Date }) {
  await db
    .delete(signInThrottles)
    .where(
      and(
        lt(signInThrottles.lastFailureAt, before),
        sql`(${signInThrottles.blockedUntil} is null or ${signInThrottles.blockedUntil} < now())`,
      ),
    );
}
