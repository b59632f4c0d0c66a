import { db } from "@/db/client";
import { onReplica } from "@/db/replica";
import type { Environment } from "@/db/schema";
import { consolePrincipal } from "./principal";
import { percentileOf } from "@/common/delivery/latency-histogram";
import { backlogOf, deliveriesOfApp, seriesFigures, windowFigures, type Figures } from "./health-queries";

// Delivery health at a glance (docs/console.md#delivery-health): for an app, and for each of its
// deliveries, the attempts of the last hour, day and week, their success rate and latency, the
// failures by status, the backlog and the state. Counts are exact; p50 and p95 come from latency
// histograms (the rollup's), within PERCENTILE_ERROR of the exact percentiles. The series is drawn
// on the UTC grid of its stride: its first point holds only the part of its bucket inside the window.

export const HEALTH_WINDOWS = {
  "1h": { label: "Last hour", seconds: 3600, strideSeconds: 300 },
  "24h": { label: "Last 24 hours", seconds: 86_400, strideSeconds: 3600 },
  "7d": { label: "Last 7 days", seconds: 604_800, strideSeconds: 21_600 },
} as const;
export type HealthWindow = keyof typeof HEALTH_WINDOWS;
export const healthWindow = (raw: unknown): HealthWindow =>
  typeof raw === "string" && Object.hasOwn(HEALTH_WINDOWS, raw) ? (raw as HealthWindow) : "24h";

/** More deliveries than this on one page would make it slow to read and to load. */
export const HEALTH_DELIVERY_LIMIT = 25;

type WindowTotals = {
  window: HealthWindow;
  attempts: number;
  delivered: number;
  successRate: number | null;
  p50Ms: number | null;
  p95Ms: number | null;
};
export type SeriesPoint = {
  at: string;
  attempts: number;
  delivered: number;
  failed: number;
  p50Ms: number | null;
  p95Ms: number | null;
};
export type StatusFailures = { status: string; failures: number };
export type Health = {
  totals: WindowTotals[];
  series: SeriesPoint[];
  failures: StatusFailures[];
  backlog: {
    pending: number;
    oldestPendingAt: string | null;
    oldestPendingAgeSeconds: number | null;
    retrying: number;
    failingSince: string | null;
  };
};

/** The health figures of a set of deliveries, as of `now`, with the chosen window in detail. */
export async function healthOf(deliveryIds: number[], window: HealthWindow, now: Date): Promise<Health> {
  const keys = Object.keys(HEALTH_WINDOWS) as HealthWindow[];
  const sinceOf = (w: HealthWindow) => new Date(now.getTime() - HEALTH_WINDOWS[w].seconds * 1000);
  const chosen = HEALTH_WINDOWS[window];
  const since = sinceOf(window);
  // Heavy reads (rollups over up to 7 days): on the replica when there is one (db/replica.ts).
  const [totals, buckets, backlog] = await onReplica(({ db }) =>
    Promise.all([
      Promise.all(keys.map((w) => windowFigures(db, { deliveryIds, since: sinceOf(w) }))),
      seriesFigures(db, { deliveryIds, since, strideSeconds: chosen.strideSeconds }),
      backlogOf(db, { deliveryIds }),
    ]),
  );
  // Every bucket of the window, the empty ones too, so a quiet hour shows as a gap, not as nothing.
  const stride = chosen.strideSeconds * 1000;
  const series: SeriesPoint[] = [];
  for (let t = Math.floor(since.getTime() / stride) * stride; t < now.getTime(); t += stride) {
    const f = buckets.get(t);
    series.push({
      at: new Date(t).toISOString(),
      attempts: f?.attempts ?? 0,
      delivered: f?.delivered ?? 0,
      failed: f ? f.attempts - f.delivered : 0,
      p50Ms: f ? percentileOf(f.latency, 0.5) : null,
      p95Ms: f ? percentileOf(f.latency, 0.95) : null,
    });
  }
  const chosenFigures = totals[keys.indexOf(window)]!;
  return {
    totals: totals.map((t, i) => ({
      window: keys[i]!,
      attempts: t.attempts,
      delivered: t.delivered,
      successRate: t.attempts ? t.delivered / t.attempts : null,
      p50Ms: percentileOf(t.latency, 0.5),
      p95Ms: percentileOf(t.latency, 0.95),
    })),
    series,
    failures: failuresOf(chosenFigures),
    backlog: {
      pending: backlog.pending,
      oldestPendingAt: backlog.oldestPendingAt?.toISOString() ?? null,
      oldestPendingAgeSeconds: backlog.oldestPendingAt
        ? Math.max(0, Math.round((now.getTime() - backlog.oldestPendingAt.getTime()) / 1000))
        : null,
      retrying: backlog.retrying,
      failingSince: backlog.failingSince?.toISOString() ?? null,
    },
  };
}

/** Failures by status, most frequent first, then by status ("no answer" last among equals). */
function failuresOf(figures: Figures): StatusFailures[] {
  return [...figures.failures]
    .filter(([, n]) => n > 0)
    .map(([key, failures]) => ({ key, failures }))
    .sort(
      (x, y) =>
        y.failures - x.failures || (x.key === "none" ? 1 : y.key === "none" ? -1 : Number(x.key) - Number(y.key)),
    )
    .map(({ key, failures }) => ({ status: key === "none" ? "no answer" : key, failures }));
}

type DeliveryState = "active" | "retrying" | "deactivated";

/** The app's health in one environment: all its deliveries together, then each one with its state. */
export async function appDeliveryHealth(
  partnerUserId: number,
  appId: number,
  environment: Environment,
  window: HealthWindow,
  now = new Date(),
) {
  await consolePrincipal(partnerUserId, appId, environment);
  const deliveries = await deliveriesOfApp(db(), { appId, environment, limit: HEALTH_DELIVERY_LIMIT + 1 });
  const shown = deliveries.slice(0, HEALTH_DELIVERY_LIMIT);
  const [app, ...each] = await Promise.all([
    shown.length
      ? healthOf(
          shown.map((d) => d.id),
          window,
          now,
        )
      : null,
    ...shown.map((d) => healthOf([d.id], window, now)),
  ]);
  return {
    window,
    now: now.toISOString(),
    app,
    more: deliveries.length > HEALTH_DELIVERY_LIMIT,
    deliveries: shown.map((d, i) => {
      const health = each[i]!;
      const state: DeliveryState = !d.active ? "deactivated" : health.backlog.retrying > 0 ? "retrying" : "active";
      return {
        id: d.id,
        subscriptionId: d.subscriptionId,
        eventType: d.eventType,
        type: d.type,
        target: d.type === "HTTP_POST" ? (d.postUrl ?? "") : (d.recipient ?? ""),
        state,
        deactivationReason: d.deactivationReason,
        deactivatedAt: d.deactivatedAt?.toISOString() ?? null,
        health,
      };
    }),
  };
}
