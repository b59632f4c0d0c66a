import { and, asc, count, eq, gt, inArray, or, sql, sum } from "drizzle-orm";
import { db, type Database } from "@/db/client";
import { notifications, trips, vehicleDataStats } from "@/db/schema";

// The export's drizzle reads: the totals shown while it downloads, and trips and notifications a
// batch at a time by id (the data points are in point-batches.ts); and its lock (one-at-a-time.ts).

export async function exportTotals({ accountId, vehicleIds }: { accountId: number; vehicleIds: number[] }) {
  if (vehicleIds.length === 0) {
    const [n] = await db().select({ n: count() }).from(notifications).where(eq(notifications.accountId, accountId));
    return { dataPoints: 0, trips: 0, notifications: n?.n ?? 0 };
  }
  const [[points], [tripCount], [noteCount]] = await Promise.all([
    db()
      .select({ n: sum(vehicleDataStats.dataPoints).mapWith(Number) })
      .from(vehicleDataStats)
      .where(inArray(vehicleDataStats.vehicleId, vehicleIds)),
    db().select({ n: count() }).from(trips).where(inArray(trips.vehicleId, vehicleIds)),
    db().select({ n: count() }).from(notifications).where(ofAccount(accountId, vehicleIds)),
  ]);
  return { dataPoints: points?.n ?? 0, trips: tripCount?.n ?? 0, notifications: noteCount?.n ?? 0 };
}

export async function tripBatch({ vehicleId, afterId, limit }: { vehicleId: number; afterId: number; limit: number }) {
  return db()
    .select()
    .from(trips)
    .where(and(eq(trips.vehicleId, vehicleId), gt(trips.id, afterId)))
    .orderBy(asc(trips.id))
    .limit(limit);
}

/** The account's notifications: of its account subscriptions and of its vehicles. */
export async function notificationBatch({
  accountId,
  vehicleIds,
  afterId,
  limit,
}: {
  accountId: number;
  vehicleIds: number[];
  afterId: number;
  limit: number;
}) {
  return db()
    .select()
    .from(notifications)
    .where(and(ofAccount(accountId, vehicleIds), gt(notifications.id, afterId)))
    .orderBy(asc(notifications.id))
    .limit(limit);
}

const ofAccount = (accountId: number, vehicleIds: number[]) =>
  vehicleIds.length === 0
    ? eq(notifications.accountId, accountId)
    : or(eq(notifications.accountId, accountId), inArray(notifications.vehicleId, vehicleIds));

/**
 * The account's export lock on `session`, a connection of its own: a session advisory lock (the
 * export's class, the account id), taken if free. It lasts until the session ends.
 */
export async function tryExportLock(
  session: Database,
  { lockClass, accountId }: { lockClass: number; accountId: number },
) {
  const [row] = await session.execute<{ held: boolean }>(
    sql`select pg_try_advisory_lock(${lockClass}::int, ${accountId}::int) as held`,
  );
  return row?.held === true;
}
