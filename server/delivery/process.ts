import { env } from "@/server/platform/env";
import { logger } from "@/server/platform/log";
import { recordDeliveries } from "@/server/platform/metrics/record";
import { recordBatch, type AttemptRecord, type RowResult } from "./attempts";
import { sendEmail, type OutboxEntry } from "./email";
import { sendHttpPost, type SendResult } from "./http-post";
import { deliveryNetwork, type DeliveryNetwork } from "./https-client";
import { extendLeases, releaseLeases, withSendGate, type Claimed } from "./claims";
import { loadForSending } from "./queries";
import { decideRetry } from "./retry-policy";
import { noteDelivered } from "@/server/access-log/note";
import type { NotificationRow } from "@/server/notifications/serialize";

// One batch the queue claimed (at most 100 notification_deliveries rows, leased to this worker):
// send them all at once, then record everything the batch did in one transaction.

export type ProcessOptions = {
  workerId: string;
  leaseSeconds: number;
  network?: DeliveryNetwork;
  now?: () => Date;
  retryScale?: number;
};

export async function processDeliveries(
  claimed: Claimed[],
  opts: ProcessOptions,
): Promise<{ claimed: number; delivered: number }> {
  const now = opts.now ?? (() => new Date());
  if (claimed.length === 0) return { claimed: 0, delivered: 0 };
  const attempts: AttemptRecord[] = [];
  const results: RowResult[] = [];
  const outbox: OutboxEntry[] = [];
  const httpStatuses = new Map<number, number>();
  const claimedIds = claimed.map((c) => c.id);
  const heartbeat = setInterval(
    () => void extendLeases({ ids: claimedIds, owner: opts.workerId, leaseSeconds: opts.leaseSeconds }).catch(() => {}),
    (opts.leaseSeconds * 1000) / 3,
  );
  try {
    const loaded = await loadForSending(claimed);
    const network = opts.network ?? deliveryNetwork();
    // Sent only past the gate: a revocation that committed since the claim stops them there, and
    // one that comes while they are sent waits for them (docs/delivery.md#revocation).
    await withSendGate({ ids: claimedIds, owner: opts.workerId }, (allowed) =>
      Promise.all(
        claimed.map((row) =>
          (async () => {
            if (!allowed.has(row.id)) {
              results.push({ id: row.id, kind: "cancelled" });
              return;
            }
            const result = await sendOne(row, loaded, network, now);
            attempts.push(...result.attempts);
            if (result.outbox) outbox.push(result.outbox);
            if (result.lastStatus !== null) httpStatuses.set(row.notificationId, result.lastStatus);
            results.push(toRowResult(row, result, now(), opts.retryScale ?? env().DELIVERY_RETRY_SCALE));
          })(),
        ),
      ),
    );
    await recordBatch({ attempts, results, httpStatuses, outbox, workerId: opts.workerId });
    recordDeliveries(attempts, results);
    // Each notification that reached its app counts in the driver's access log, once it is recorded.
    noteDelivered(deliveredNotifications(claimed, results, loaded.notifications));
  } catch (error) {
    // Nothing recorded: give the rows back at once, so that the queue claims them again (whatever
    // was sent will be sent again: at-least-once).
    await releaseLeases({ ids: claimedIds, owner: opts.workerId }).catch(() => {});
    throw error;
  } finally {
    clearInterval(heartbeat);
  }
  return { claimed: claimed.length, delivered: results.filter((r) => r.kind === "delivered").length };
}

async function sendOne(
  row: Claimed,
  loaded: Awaited<ReturnType<typeof loadForSending>>,
  network: DeliveryNetwork,
  now: () => Date,
): Promise<SendResult & { outbox?: OutboxEntry }> {
  const ids = { notificationDeliveryId: row.id, notificationId: row.notificationId, deliveryId: row.deliveryId };
  const delivery = loaded.deliveries.get(row.deliveryId);
  const notification = loaded.notifications.get(row.notificationId);
  if (!delivery || !notification)
    return {
      outcome: { kind: "retry", error: "notification or delivery vanished", retryAfterMs: null },
      attempts: [],
      lastStatus: null,
    };
  try {
    const precision = loaded.precisionOf(notification);
    if (delivery.type === "EMAIL") return await sendEmail({ ids, delivery, notification, precision, now });
    return await sendHttpPost({
      ids,
      delivery,
      notification,
      precision,
      secrets: loaded.secrets.get(notification.appId) ?? [],
      network,
      now,
    });
  } catch (error) {
    // A bug or a database hiccup: logged, and the row retried like a failed send.
    logger.error({ err: error, ...ids }, "delivery failed unexpectedly");
    const message = error instanceof Error ? error.message : String(error);
    return {
      outcome: { kind: "retry", error: `internal error: ${message}`, retryAfterMs: null },
      attempts: [],
      lastStatus: null,
    };
  }
}

function toRowResult(row: Claimed, result: SendResult, at: Date, scale: number): RowResult {
  const { outcome } = result;
  if (outcome.kind === "delivered") return { id: row.id, kind: "delivered" };
  if (outcome.kind === "deactivate")
    return { id: row.id, kind: "deactivated", deliveryId: row.deliveryId, reason: outcome.reason, at };
  const failures = row.attempts + 1;
  const decision = decideRetry({
    failures,
    failingSince: row.failingSince,
    now: at,
    retryAfterMs: outcome.retryAfterMs,
    lastError: outcome.error,
    scale,
  });
  if (decision.action === "deactivate")
    return { id: row.id, kind: "deactivated", deliveryId: row.deliveryId, reason: decision.reason, at };
  return { id: row.id, kind: "retry", at: decision.at, attempts: failures, failingSince: decision.failingSince };
}

function deliveredNotifications(
  claimed: Claimed[],
  results: RowResult[],
  notifications: Map<number, NotificationRow>,
): NotificationRow[] {
  const delivered = new Set(results.filter((r) => r.kind === "delivered").map((r) => r.id));
  return claimed
    .filter((row) => delivered.has(row.id))
    .map((row) => notifications.get(row.notificationId))
    .filter((n): n is NotificationRow => n !== undefined);
}
