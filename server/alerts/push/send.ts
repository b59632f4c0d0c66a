import { parseOrThrow } from "@/common/http/zod-errors";
import { deliveryNetwork } from "@/server/delivery/https-client";
import { logger } from "@/server/platform/log";
import { pushMessage } from "./push-message";
import { deleteSubscriptionById, markDelivered, subscriptionsOf } from "./queries";
import { pushPayload, type PushPayload } from "./schemas";
import { vapidKeys } from "./vapid";

export type PushResult = {
  /** Subscriptions a push service accepted the message for. */
  sent: number;
  /** Subscriptions removed because their push service answered 404 or 410. */
  removed: number;
  /** One line per subscription that failed otherwise (5xx, 429, a timeout, a refused address): retry later. */
  failures: string[];
};

/**
 * A browser notification to every browser the driver turned them on in, at once. The caller (the
 * alerts' delivery in the worker) retries while `failures` is not empty; a subscription its push
 * service calls gone is removed here and never counts as a failure.
 */
export async function sendPushToAccount({
  accountId,
  payload,
}: {
  accountId: number;
  payload: PushPayload;
}): Promise<PushResult> {
  const message = parseOrThrow(pushPayload, payload, "browser notification");
  const subscriptions = await subscriptionsOf({ accountId });
  if (subscriptions.length === 0) return { sent: 0, removed: 0, failures: [] };
  const keys = vapidKeys();
  const network = deliveryNetwork();
  const result: PushResult = { sent: 0, removed: 0, failures: [] };
  await Promise.all(
    subscriptions.map(async (subscription) => {
      const outcome = await pushMessage({ target: subscription, payload: message, keys, network }).catch(
        (error: unknown) => ({ kind: "failed" as const, reason: `not sent: ${(error as Error).message}` }),
      );
      if (outcome.kind === "sent") {
        result.sent++;
        await markDelivered({ id: subscription.id });
      } else if (outcome.kind === "gone") {
        result.removed++;
        await deleteSubscriptionById({ id: subscription.id });
        logger.info({ accountId, status: outcome.status }, "push subscription gone: removed");
      } else {
        result.failures.push(outcome.reason);
      }
    }),
  );
  return result;
}
