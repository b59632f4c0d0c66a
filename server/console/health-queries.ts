import { and, asc, desc, eq, gte, inArray, isNull, ne, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { deliveryAttempts, deliveryJobs, notificationDeliveries, subscriptionDeliveries, subscriptions, type Environment } from "@/db/schema";

// The reads behind the console's delivery health page (docs/console.md#delivery-health). Each
// takes a set of subscription_deliveries ids (one delivery, or every delivery of an app) and reads
// delivery_attempts through delivery_attempts_health_idx (delivery_id, attempted_at, outcome,
// http_status, latency_ms) alone: index-only scans, timed by `npm run bench:delivery-health`.
//
// An attempt is every row but a REDIRECTED leg (the hop is part of the attempt that follows it);
// it succeeded when its outcome is DELIVERED; every other one is a failure, by HTTP status (null:
// no answer: timeout, refused connection, TLS or SSRF refusal).

const counted = ne(deliveryAttempts.outcome, "REDIRECTED");
const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;
// p50 and p95 from one sort of the latencies (the array form of percentile_disc).
const p50p95 = sql<[number, number] | null>`percentile_disc(array[0.5, 0.95]) within group (order by ${deliveryAttempts.latencyMs})`;

/** The app's deliveries in one environment (live subscriptions), first subscription first. */
export async function deliveriesOfApp(db: Executor, { appId, environment, limit }: { appId: number; environment: Environment; limit: number }) {
  return db
    .select({
      id: subscriptionDeliveries.id,
      subscriptionId: subscriptions.id,
      eventType: subscriptions.type,
      type: subscriptionDeliveries.type,
      postUrl: subscriptionDeliveries.postUrl,
      recipient: subscriptionDeliveries.recipient,
      active: subscriptionDeliveries.active,
      deactivationReason: subscriptionDeliveries.deactivationReason,
      deactivatedAt: subscriptionDeliveries.deactivatedAt,
    })
    .from(subscriptionDeliveries)
    .innerJoin(subscriptions, eq(subscriptions.id, subscriptionDeliveries.subscriptionId))
    .where(and(eq(subscriptions.appId, appId), eq(subscriptions.environment, environment), isNull(subscriptions.deletedAt)))
    .orderBy(desc(subscriptions.id), asc(subscriptionDeliveries.position))
    .limit(limit);
}

/** Attempts, successes, p50 and p95 latency in each window that starts at one of `since` (one scan of the widest). */
export async function attemptTotals(db: Executor, { deliveryIds, since }: { deliveryIds: number[]; since: Date[] }) {
  const oldest = new Date(Math.min(...since.map((d) => d.getTime())));
  const columns = Object.fromEntries(
    since.flatMap((from, i) => {
      const inWindow = sql`${deliveryAttempts.attemptedAt} >= ${at(from)}`;
      return [
        [`attempts${i}`, sql<number>`(count(*) filter (where ${inWindow}))::int`],
        [`delivered${i}`, sql<number>`(count(*) filter (where ${inWindow} and ${deliveryAttempts.outcome} = 'DELIVERED'))::int`],
        [`latency${i}`, sql<[number, number] | null>`${p50p95} filter (where ${inWindow})`],
      ];
    }),
  ) as Record<string, ReturnType<typeof sql<number | [number, number] | null>>>;
  const [row] = await db
    .select(columns)
    .from(deliveryAttempts)
    .where(and(inArray(deliveryAttempts.deliveryId, deliveryIds), gte(deliveryAttempts.attemptedAt, oldest), counted));
  return since.map((_, i) => {
    const latency = (row?.[`latency${i}`] ?? null) as [number, number] | null;
    return { attempts: Number(row?.[`attempts${i}`] ?? 0), delivered: Number(row?.[`delivered${i}`] ?? 0), p50: latency?.[0] ?? null, p95: latency?.[1] ?? null };
  });
}

/** One window in buckets of `stride` seconds, aligned on `since`: attempts, successes, p50, p95 per bucket. */
export async function attemptSeries(db: Executor, { deliveryIds, since, strideSeconds }: { deliveryIds: number[]; since: Date; strideSeconds: number }) {
  const bucket = sql`date_bin(${sql.raw(`'${strideSeconds} seconds'`)}::interval, ${deliveryAttempts.attemptedAt}, ${at(since)})`;
  const rows = await db
    .select({
      bucket: sql<number>`(extract(epoch from ${bucket}) * 1000)::float8`,
      attempts: sql<number>`count(*)::int`,
      delivered: sql<number>`(count(*) filter (where ${deliveryAttempts.outcome} = 'DELIVERED'))::int`,
      latency: p50p95,
    })
    .from(deliveryAttempts)
    .where(and(inArray(deliveryAttempts.deliveryId, deliveryIds), gte(deliveryAttempts.attemptedAt, since), counted))
    .groupBy(sql`1`)
    .orderBy(sql`1`);
  return rows.map((r) => ({ bucket: new Date(Math.round(Number(r.bucket))), attempts: r.attempts, delivered: r.delivered, p50: r.latency?.[0] ?? null, p95: r.latency?.[1] ?? null }));
}

/** Failed attempts in the window by HTTP status (null: no answer), most frequent first. */
export async function failuresByStatus(db: Executor, { deliveryIds, since }: { deliveryIds: number[]; since: Date }) {
  return db
    .select({ httpStatus: deliveryAttempts.httpStatus, failures: sql<number>`count(*)::int` })
    .from(deliveryAttempts)
    .where(and(inArray(deliveryAttempts.deliveryId, deliveryIds), gte(deliveryAttempts.attemptedAt, since), counted, ne(deliveryAttempts.outcome, "DELIVERED")))
    .groupBy(deliveryAttempts.httpStatus)
    .orderBy(desc(sql`count(*)`), asc(deliveryAttempts.httpStatus));
}

/** What waits: pending notifications, the oldest one's time, and how many of them have failed at least once. */
export async function backlogOf(db: Executor, { deliveryIds }: { deliveryIds: number[] }) {
  const [row] = await db
    .select({
      pending: sql<number>`count(*)::int`,
      oldestPendingAt: sql<number | null>`(extract(epoch from date_trunc('milliseconds', min(${notificationDeliveries.createdAt}))) * 1000)::float8`,
      retrying: sql<number>`(count(*) filter (where ${deliveryJobs.attempts} > 0))::int`,
      failingSince: sql<number | null>`(extract(epoch from date_trunc('milliseconds', min(${deliveryJobs.failingSince}))) * 1000)::float8`,
    })
    .from(notificationDeliveries)
    .leftJoin(deliveryJobs, eq(deliveryJobs.notificationDeliveryId, notificationDeliveries.id))
    .where(and(inArray(notificationDeliveries.deliveryId, deliveryIds), eq(notificationDeliveries.status, "PENDING")));
  return {
    pending: row?.pending ?? 0,
    oldestPendingAt: row?.oldestPendingAt != null ? new Date(Math.round(Number(row.oldestPendingAt))) : null,
    retrying: row?.retrying ?? 0,
    failingSince: row?.failingSince != null ? new Date(Math.round(Number(row.failingSince))) : null,
  };
}
