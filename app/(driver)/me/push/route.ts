import { withDriver, otherMethods } from "@/server/http/with-driver";
import { pushSettings } from "@/server/alerts/push/service";

// GET /me/push — the VAPID public key to subscribe with, and the driver's browsers with notifications on
export const GET = withDriver(async ({ session }) => ({ push: await pushSettings({ accountId: session.accountId }) }), {
  write: false,
});

// Any other method: 405 in the API's error body, with Allow naming the method above
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
