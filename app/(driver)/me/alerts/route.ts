import { withDriver, otherMethods } from "@/server/http/with-driver";
import { listDriverAlerts } from "@/server/surfaces/driver/alerts";

// GET /me/alerts — the signed-in driver's alerts, newest first, each with its channels' outcomes
export const GET = withDriver(async ({ session }) => ({ alerts: await listDriverAlerts(session) }), { write: false });

// Any other method: 405 in the API's error body, with Allow naming the method above
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
