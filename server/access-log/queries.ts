import { and, desc, eq, gte, max, sql, sum } from "drizzle-orm";
import { db } from "@/db/client";
import { accessCounts, accounts, partnerApps, type Environment } from "@/db/schema";
import type { AccessCategory } from "@/common/access/categories";

// Reads of the access log for the driver site and the partner console. Days are UTC days.

const day = sql<string>`to_char(${accessCounts.hour} at time zone 'UTC', 'YYYY-MM-DD')`;
const total = sql<number>`sum(${accessCounts.count})::int`;

/** Per app and category: the count and the last access since `since`. */
export async function accessTotalsOfAccount({ accountId, since }: { accountId: number; since: Date }) {
  const rows = await db()
    .select({
      appId: accessCounts.appId,
      appName: partnerApps.name,
      category: accessCounts.category,
      count: total,
      lastAt: max(accessCounts.lastAt),
    })
    .from(accessCounts)
    .innerJoin(partnerApps, eq(partnerApps.id, accessCounts.appId))
    .where(and(eq(accessCounts.accountId, accountId), gte(accessCounts.hour, since)))
    .groupBy(accessCounts.appId, partnerApps.name, accessCounts.category)
    .orderBy(partnerApps.name, accessCounts.appId, accessCounts.category);
  return rows.map((r) => ({ ...r, category: r.category as AccessCategory, lastAt: r.lastAt! }));
}

/** Per UTC day and category, every app together. */
export async function accessByDayOfAccount({ accountId, since }: { accountId: number; since: Date }) {
  return db()
    .select({ day, category: accessCounts.category, count: total })
    .from(accessCounts)
    .where(and(eq(accessCounts.accountId, accountId), gte(accessCounts.hour, since)))
    .groupBy(day, accessCounts.category)
    .orderBy(day);
}

/** Every hour's counter of the account, newest first (the CSV download and the export). */
export async function accessHoursOfAccount({ accountId, since }: { accountId: number; since: Date }) {
  return db()
    .select({
      appId: accessCounts.appId,
      appName: partnerApps.name,
      category: accessCounts.category,
      hour: accessCounts.hour,
      count: accessCounts.count,
      lastAt: accessCounts.lastAt,
    })
    .from(accessCounts)
    .innerJoin(partnerApps, eq(partnerApps.id, accessCounts.appId))
    .where(and(eq(accessCounts.accountId, accountId), gte(accessCounts.hour, since)))
    .orderBy(desc(accessCounts.hour), partnerApps.name, accessCounts.category);
}

/** An app's own counts in one environment, every account together: per UTC day and category. */
export async function accessByDayOfApp({
  appId,
  environment,
  since,
}: {
  appId: number;
  environment: Environment;
  since: Date;
}) {
  const rows = await db()
    .select({
      day,
      category: accessCounts.category,
      count: sum(accessCounts.count).mapWith(Number),
    })
    .from(accessCounts)
    .innerJoin(accounts, eq(accounts.id, accessCounts.accountId))
    .where(and(eq(accessCounts.appId, appId), eq(accounts.environment, environment), gte(accessCounts.hour, since)))
    .groupBy(day, accessCounts.category)
    .orderBy(day, accessCounts.category);
  return rows.map((r) => ({ ...r, category: r.category as AccessCategory }));
}
