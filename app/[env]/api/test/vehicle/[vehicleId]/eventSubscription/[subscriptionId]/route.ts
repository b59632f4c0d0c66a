import { preflight } from "@/server/http/cors";
import { one } from "@/server/http/results";
import { otherMethods } from "@/server/http/method-not-allowed";
import { withApi } from "@/server/http/with-api";
import { sendTestNotification } from "@/server/notifications/service";
import { testNotificationOperation } from "@/server/subscriptions/operations";

// GET test/vehicle/{id}/eventSubscription/{subId} — a test notification through every delivery
export const GET = withApi(testNotificationOperation, async ({ principal, params }) =>
  one(await sendTestNotification(principal, params.vehicleId, params.subscriptionId)),
);

export const OPTIONS = preflight;

// Any other method: 405 with Allow naming the methods above
export const { PUT, PATCH, DELETE, POST } = otherMethods(testNotificationOperation);
