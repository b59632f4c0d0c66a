import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { bucketStart, ROLLUP_BUCKET_SECONDS } from "@/server/delivery/attempt-rollups";
import { LATENCY_BIN_BOUNDS_MS } from "@/common/delivery/latency-histogram";
import {
  deliveryAttemptRollups,
  deliveryAttempts,
  notificationDeliveries,
  subscriptionDeliveries,
  subscriptions,
  type Environment,
} from "@/db/schema";

// The reads behind the console's delivery health page (docs/console.md#delivery-health). Each
// takes a set of subscription_deliveries ids (one delivery, or every delivery of an app). The
// attempts' figures come from the rollup, delivery_attempt_rollups (buckets of 1 hour and of 5
// minutes, written with the attempts by server/delivery/attempt-rollups.ts): a window reads its
// whole hours from the hour rows (at most 169 a delivery for 7 days), the whole 5 minutes before
// its first whole hour from the 5-minute rows (at most 11), and its first, partial 5 minutes from
// delivery_attempts itself through delivery_attempts_health_idx, so "the last hour" is the last 60
// minutes to the millisecond. Timed by `npm run bench:delivery-health`.
//
// An attempt is every row but a REDIRECTED leg (the hop is part of the attempt that follows it);
// it succeeded when its outcome is DELIVERED; every other one is a failure, by HTTP status ("none":
// no answer: timeout, refused connection, TLS or SSRF refusal). Latencies come as histograms
// (bin → count, common/delivery/latency-histogram.ts); the caller reads p50 and p95 from them.

// The bins' bounds as one array parameter (its text form), not spliced into the statement.
const bounds = sql`${`{${LATENCY_BIN_BOUNDS_MS.join(",")}}`}::int[]`;
const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const [FINE, COARSE] = ROLLUP_BUCKET_SECONDS;

/** The first bucket of `seconds` wholly inside a window that starts at `since`. */
const firstWhole = (since: Date, seconds: number) => {
  const start = bucketStart(since, seconds);
  return start.getTime() === since.getTime() ? start : new Date(start.getTime() + seconds * 1000);
};

/**
 * The window's figures as rows of (at, attempts, delivered, failures, latency): whole hours from
 * the hour rows when `hours` (else none), whole 5 minutes up to them from the 5-minute rows, the
 * partial edge from the attempts.
 */
function windowParts(deliveryIds: number[], since: Date, hours: boolean) {
  const fineEdge = firstWhole(since, FINE);
  const coarseEdge = firstWhole(since, COARSE);
  const r = deliveryAttemptRollups;
  const a = deliveryAttempts;
  const rows = (seconds: number, from: Date, to: Date | null) => sql`
    select ${r.bucketStart} as at, ${r.attempts} as attempts, ${r.delivered} as delivered, ${r.failures} as failures, ${r.latency} as latency
    from ${r} where ${inArray(r.deliveryId, deliveryIds)} and ${r.bucketSeconds} = ${seconds}
      and ${r.bucketStart} >= ${at(from)}${to ? sql` and ${r.bucketStart} < ${at(to)}` : sql``}`;
  return sql`
    ${hours ? sql`${rows(COARSE, coarseEdge, null)} union all ${rows(FINE, fineEdge, coarseEdge)}` : rows(FINE, fineEdge, null)}
    union all
    select ${a.attemptedAt}, 1, (${a.outcome} = 'DELIVERED')::int,
      case when ${a.outcome} = 'DELIVERED' then '{}'::jsonb else jsonb_build_object(coalesce(${a.httpStatus}::text, 'none'), 1) end,
      jsonb_build_object(width_bucket(${a.latencyMs}, ${bounds})::text, 1)
    from ${a} where ${inArray(a.deliveryId, deliveryIds)} and ${a.attemptedAt} >= ${at(since)} and
      ${a.attemptedAt} < ${at(fineEdge)} and ${a.outcome} <> 'REDIRECTED'`;
}

type FigureRow = {
  bucket: number | null;
  kind: "total" | "failure" | "latency";
  key: string | null;
  n: number;
  delivered: number | null;
};
export type Figures = {
  attempts: number;
  delivered: number;
  failures: Map<string, number>;
  latency: Map<string, number>;
};
const emptyFigures = (): Figures => ({ attempts: 0, delivered: 0, failures: new Map(), latency: new Map() });

/** Sums the window's parts, per bucket of `strideSeconds` on the UTC grid (date_bin from the epoch), or all together. */
async function sumParts(
  db: Executor,
  deliveryIds: number[],
  since: Date,
  strideSeconds: number | null,
): Promise<Map<number | null, Figures>> {
  const bucket =
    strideSeconds === null
      ? sql`null::float8`
      : sql`(extract(epoch from date_bin(make_interval(secs => ${strideSeconds}), at, timestamptz 'epoch')) * 1000)::float8`;
  const rows = (await db.execute(sql`
    with parts as (${windowParts(deliveryIds, since, strideSeconds === null || strideSeconds % COARSE === 0)})
    select ${bucket} as bucket, 'total' as kind, null as key, sum(attempts)::int as n, sum(delivered)::int as delivered from parts group by 1
    union all
    select ${bucket}, 'failure', f.key, sum(f.value::int)::int, null from parts, jsonb_each_text(failures) f group by 1, 3
    union all
    select ${bucket}, 'latency', l.key, sum(l.value::int)::int, null from parts, jsonb_each_text(latency) l group by 1, 3`)) as unknown as FigureRow[];
  const out = new Map<number | null, Figures>();
  for (const row of rows) {
    const key = row.bucket === null ? null : Math.round(Number(row.bucket));
    let figures = out.get(key);
    if (!figures) out.set(key, (figures = emptyFigures()));
    if (row.kind === "total") {
      figures.attempts = Number(row.n);
      figures.delivered = Number(row.delivered);
    } else (row.kind === "failure" ? figures.failures : figures.latency).set(row.key!, Number(row.n));
  }
  return out;
}

/** Attempts, successes, failures by status and the latency histogram of the window that starts at `since`. */
export async function windowFigures(
  db: Executor,
  { deliveryIds, since }: { deliveryIds: number[]; since: Date },
): Promise<Figures> {
  return (await sumParts(db, deliveryIds, since, null)).get(null) ?? emptyFigures();
}

/**
 * The same per bucket of `strideSeconds` (a multiple of 5 minutes; of an hour, or under one), on the
 * UTC grid: the first bucket holds only the attempts from `since` on.
 */
export async function seriesFigures(
  db: Executor,
  { deliveryIds, since, strideSeconds }: { deliveryIds: number[]; since: Date; strideSeconds: number },
): Promise<Map<number, Figures>> {
  return (await sumParts(db, deliveryIds, since, strideSeconds)) as Map<number, Figures>;
}

/** The app's deliveries in one environment (live subscriptions), first subscription first. */
export async function deliveriesOfApp(
  db: Executor,
  { appId, environment, limit }: { appId: number; environment: Environment; limit: number },
) {
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
    .where(
      and(eq(subscriptions.appId, appId), eq(subscriptions.environment, environment), isNull(subscriptions.deletedAt)),
    )
    .orderBy(desc(subscriptions.id), asc(subscriptionDeliveries.position))
    .limit(limit);
}

/** What waits: pending notifications, the oldest one's time, and how many of them have failed at least once. */
export async function backlogOf(db: Executor, { deliveryIds }: { deliveryIds: number[] }) {
  const [row] = await db
    .select({
      pending: sql<number>`count(*)::int`,
      oldestPendingAt: sql<
        number | null
      >`(extract(epoch from date_trunc('milliseconds', min(${notificationDeliveries.createdAt}))) * 1000)::float8`,
      retrying: sql<number>`(count(*) filter (where ${notificationDeliveries.attempts} > 0))::int`,
      failingSince: sql<
        number | null
      >`(extract(epoch from date_trunc('milliseconds', min(${notificationDeliveries.failingSince}))) * 1000)::float8`,
    })
    .from(notificationDeliveries)
    .where(and(inArray(notificationDeliveries.deliveryId, deliveryIds), eq(notificationDeliveries.status, "PENDING")));
  return {
    pending: row?.pending ?? 0,
    oldestPendingAt: row?.oldestPendingAt != null ? new Date(Math.round(Number(row.oldestPendingAt))) : null,
    retrying: row?.retrying ?? 0,
    failingSince: row?.failingSince != null ? new Date(Math.round(Number(row.failingSince))) : null,
  };
}
