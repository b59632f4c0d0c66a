import { withDriver, otherMethods } from "@/server/http/with-driver";
import { unsubscribe } from "@/server/alerts/push/service";

// POST /me/push/unsubscribe — forget one of the driver's push subscriptions ({"endpoint"})
export const POST = withDriver(
  async ({ session, body }) => {
    await unsubscribe({ accountId: session.accountId, body: await body() });
    return { result: "OK" };
  },
  { write: true },
);

// Any other method: 405 in the API's error body, with Allow naming the method above
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
