import { withDriver, otherMethods } from "@/server/http/with-driver";
import { sendDriverTestAlert } from "@/server/surfaces/driver/alerts";

// POST /me/alerts/test — queue a test alert on one channel ({"channel": "email" | "browser"})
export const POST = withDriver(async ({ session, body }) => sendDriverTestAlert(session, await body()), {
  write: true,
});

// Any other method: 405 in the API's error body, with Allow naming the method above
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
