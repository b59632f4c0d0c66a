import os from "node:os";
import { randomBytes } from "node:crypto";
import { rawSql } from "@/db/client";
import { env } from "@/server/platform/env";
import { childLogger } from "@/server/platform/log";
import { closeEmailTransport } from "./email";
import { processDeliveries } from "./process";
import { claimDue, QUEUE_CHANNEL, releaseOwnLeases, type Claimed } from "./claims";
import { processAlertDeliveries } from "@/server/alerts/delivery/process";
import { claimDueAlerts, releaseOwnAlertLeases, type ClaimedAlert } from "@/server/alerts/delivery/queries";

// The delivery queue is the PENDING rows of notification_deliveries themselves (migration 0034):
// a row is queued by being inserted, in the transaction of its notification (a committed
// notification is always queued), and carries when it is due (next_attempt_at: now, or a retry's
// time) and who sends it (a lease: lease_owner, lease_until). One model does what a job queue, a
// lease table and a sweeper did before (docs/decisions/0033-delivery-queue-on-pending-rows.md):
// - a worker claims up to BATCH due rows at a time (FOR UPDATE SKIP LOCKED: two workers never
//   take the same row), as long as fewer than DELIVERY_CONCURRENCY of its batches are in hand;
// - new rows wake it at once (NOTIFY wayline_deliveries, sent by the trigger, a resend and a
//   drain); retries coming due and leases of a vanished worker (kill -9) are found by the same
//   claim, run at least every POLL_MS while the worker waits;
// - a live worker's heartbeat extends its leases (process.ts); a stopping one gives them back.
// The drivers' alert deliveries (alert_deliveries, server/alerts/delivery/) are a second queue of the
// same kind, claimed by the same pump and woken by the same NOTIFY.

const log = childLogger({ component: "queue" });

/** The most rows one claim takes (one batch, sent at once and recorded in one transaction). */
const BATCH = 100;
/** How long an idle worker waits for a NOTIFY before claiming anyway (due retries, expired leases). */
const POLL_MS = 1000;

export type DeliveryQueue = {
  workerId: string;
  /** Lets the batches in hand finish, then gives back what is still leased. */
  stop(): Promise<void>;
  /** Gives back at once every delivery this worker holds, sends in flight or not (at-least-once). */
  abandon(): Promise<void>;
};

export async function startDeliveryQueue(): Promise<DeliveryQueue> {
  const config = env();
  const workerId = `${os.hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
  const leaseSeconds = config.DELIVERY_LEASE_SECONDS;
  const concurrency = config.DELIVERY_CONCURRENCY;

  // A NOTIFY that arrives while the pump is claiming is remembered, so that it claims once more
  // before it sleeps: no wake-up is lost between a claim and the wait.
  let nudged = false;
  let wake: (() => void) | null = null;
  const nudge = () => {
    nudged = true;
    wake?.();
  };
  const idle = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });
  const listening = await rawSql().listen(QUEUE_CHANNEL, nudge);

  let stopping = false;
  const inHand = new Set<Promise<void>>();
  let failed = false;
  const send = (work: Promise<unknown>) => {
    const batch: Promise<void> = work
      .then(
        () => {},
        (error: unknown) => {
          // The batch gave its rows back; pause before claiming again rather than spin on a fault.
          failed = true;
          log.error({ err: error }, "delivery batch failed");
        },
      )
      .finally(() => {
        inHand.delete(batch);
        wake?.();
      });
    inHand.add(batch);
  };

  const pump = (async () => {
    while (!stopping) {
      if (inHand.size >= concurrency) {
        await Promise.race(inHand);
        continue;
      }
      if (failed) {
        failed = false;
        await idle(POLL_MS);
        continue;
      }
      nudged = false;
      let claimed: Claimed[];
      let alerts: ClaimedAlert[];
      try {
        claimed = await claimDue({ owner: workerId, leaseSeconds, limit: BATCH });
        alerts = await claimDueAlerts({ owner: workerId, leaseSeconds, limit: BATCH });
      } catch (error) {
        log.error({ err: error }, "claiming deliveries failed");
        await idle(POLL_MS);
        continue;
      }
      if (claimed.length > 0) send(processDeliveries(claimed, { workerId, leaseSeconds }));
      if (alerts.length > 0) send(processAlertDeliveries(alerts, { workerId, leaseSeconds }));
      if (claimed.length === 0 && alerts.length === 0 && !nudged && !stopping) await idle(POLL_MS);
    }
  })();

  const giveBack = async () => {
    await releaseOwnLeases(workerId).catch((error: unknown) =>
      log.error({ err: error }, "releasing delivery leases failed"),
    );
    await releaseOwnAlertLeases(workerId).catch((error: unknown) =>
      log.error({ err: error }, "releasing alert delivery leases failed"),
    );
  };
  let stopped: Promise<void> | null = null;
  return {
    workerId,
    stop: () =>
      (stopped ??= (async () => {
        stopping = true;
        wake?.();
        await pump;
        // Each batch in hand ends within the 10 s send timeout and records what it did.
        await Promise.all(inHand);
        await listening.unlisten().catch(() => {});
        // Whatever this worker still holds goes back, and the others are woken to send it now
        // rather than when the lease runs out.
        await giveBack();
        await closeEmailTransport();
      })()),
    abandon: giveBack,
  };
}
