import { withDriver, otherMethods } from "@/server/http/with-driver";
import { sendTestNotification } from "@/server/alerts/push/service";

// POST /me/push/test — a test notification to each of the driver's browsers ({"sent", "removed", "failures"})
export const POST = withDriver(async ({ session }) => sendTestNotification({ accountId: session.accountId }), {
  write: true,
});

// Any other method: 405 in the API's error body, with Allow naming the method above
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
