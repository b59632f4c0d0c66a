import { env } from "@/server/platform/env";
import { childLogger } from "@/server/platform/log";
import { sendOverSmtp } from "@/server/delivery/email";
import { decideRetry } from "@/server/delivery/retry-policy";
import { sendPushToAccount } from "@/server/alerts/push/send";
import { ALERT_FROM, alertEmail, alertPush } from "./compose";
import {
  extendAlertLeases,
  recordAlertOutcomes,
  releaseAlertLeases,
  type AlertOutcome,
  type ClaimedAlert,
} from "./queries";

// One batch of alert deliveries the queue claimed (server/delivery/queue.ts): each sent on its
// channel, then every outcome recorded at once. A failed send is retried on the notifications'
// schedule (server/delivery/retry-policy.ts) and given up after it has failed for 24 hours.

const log = childLogger({ component: "alerts" });

type Sent =
  | { kind: "delivered"; outbox?: AlertOutcome & { status: "DELIVERED" } }
  | { kind: "failed"; reason: string }
  | { kind: "retry"; error: string };

async function sendEmailAlert(alert: ClaimedAlert): Promise<Sent> {
  if (!alert.email) return { kind: "failed", reason: "The account has no e-mail address." };
  const mail = alertEmail(alert);
  try {
    const response = await sendOverSmtp({
      from: ALERT_FROM,
      to: alert.email,
      ...mail,
      headers: { "X-Wayline-Alert-Id": String(alert.alertId) },
    });
    if (response !== null) return { kind: "delivered" };
    // No SMTP server configured: the e-mail is kept in the outbox, as the notifications' are.
    return {
      kind: "delivered",
      outbox: { id: alert.id, status: "DELIVERED", reason: null, outbox: { recipient: alert.email, ...mail } },
    };
  } catch (error) {
    const e = error as Error & { code?: string };
    return { kind: "retry", error: `${e.code ? `${e.code}: ` : ""}${e.message}` };
  }
}

// Web Push to every browser the driver turned notifications on in (push/send.ts, which removes the
// subscriptions whose push service answers 404 or 410). Delivered when one browser took it; retried
// while any failed and none took it; failed when no browser is subscribed (or all were gone).
async function sendBrowserAlert(alert: ClaimedAlert): Promise<Sent> {
  const result = await sendPushToAccount({ accountId: alert.accountId, payload: alertPush(alert) });
  if (result.sent > 0) return { kind: "delivered" };
  if (result.failures.length > 0) return { kind: "retry", error: result.failures.join("; ") };
  return { kind: "failed", reason: "No browser of yours has notifications turned on." };
}

export async function processAlertDeliveries(
  claimed: ClaimedAlert[],
  { workerId, leaseSeconds, now = () => new Date() }: { workerId: string; leaseSeconds: number; now?: () => Date },
): Promise<void> {
  const heartbeat = setInterval(
    () => void extendAlertLeases({ ids: claimed.map((c) => c.id), owner: workerId, leaseSeconds }).catch(() => {}),
    (leaseSeconds * 1000) / 3,
  );
  try {
    const outcomes = await Promise.all(
      claimed.map(async (row): Promise<AlertOutcome> => {
        const sent = await (row.channel === "email" ? sendEmailAlert(row) : sendBrowserAlert(row)).catch(
          (error: unknown): Sent => {
            log.error({ err: error, alertDeliveryId: row.id }, "alert delivery failed unexpectedly");
            return {
              kind: "retry",
              error: `internal error: ${error instanceof Error ? error.message : String(error)}`,
            };
          },
        );
        if (sent.kind === "delivered") return sent.outbox ?? { id: row.id, status: "DELIVERED", reason: null };
        if (sent.kind === "failed") return { id: row.id, status: "FAILED", reason: sent.reason };
        const decision = decideRetry({
          failures: row.attempts + 1,
          failingSince: row.failingSince,
          now: now(),
          lastError: sent.error,
          scale: env().DELIVERY_RETRY_SCALE,
        });
        if (decision.action === "deactivate") return { id: row.id, status: "FAILED", reason: decision.reason };
        return {
          id: row.id,
          status: "PENDING",
          reason: sent.error,
          at: decision.at,
          attempts: row.attempts + 1,
          failingSince: decision.failingSince,
        };
      }),
    );
    await recordAlertOutcomes(workerId, outcomes);
  } catch (error) {
    // Nothing recorded: the rows go back at once and are sent again (at-least-once), as a
    // notification batch's do (server/delivery/process.ts).
    await releaseAlertLeases({ ids: claimed.map((c) => c.id), owner: workerId }).catch(() => {});
    throw error;
  } finally {
    clearInterval(heartbeat);
  }
}
