import { withDriver, otherMethods } from "@/server/http/with-driver";
import { subscribe } from "@/server/alerts/push/service";

// POST /me/push/subscribe — store this browser's push subscription (its PushSubscription.toJSON())
export const POST = withDriver(
  async ({ session, request, body }) => ({
    subscription: await subscribe({
      accountId: session.accountId,
      body: await body(),
      userAgent: request.headers.get("user-agent"),
    }),
  }),
  { write: true },
);

// Any other method: 405 in the API's error body, with Allow naming the method above
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
