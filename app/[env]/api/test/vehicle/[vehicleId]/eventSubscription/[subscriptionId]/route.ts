import { preflight } from "@/server/http/cors";
import { one } from "@/server/http/results";
import { withApi } from "@/server/http/with-api";
import { sendTestNotification } from "@/server/notifications/service";
import { testNotificationOperation } from "@/server/subscriptions/operations";

export { PUT, PATCH, DELETE, POST } from "@/server/http/method-not-allowed";

// GET test/vehicle/{id}/eventSubscription/{subId} — a test notification through every delivery
export const GET = withApi(testNotificationOperation, async ({ principal, params }) => one(await sendTestNotification(principal, params.vehicleId, params.subscriptionId)));

export const OPTIONS = preflight;
