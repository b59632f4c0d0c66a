import { withDriver, otherMethods } from "@/server/http/with-driver";
import { getDriverAlertSettings, saveDriverAlertSettings } from "@/server/surfaces/driver/alerts";

// GET /me/alerts/settings — the driver's channels and thresholds per kind, and the quiet hours
export const GET = withDriver(async ({ session }) => ({ settings: await getDriverAlertSettings(session) }), {
  write: false,
});

// POST /me/alerts/settings — save them ({"preferences": [...], "quietHours": {"from", "to"} | null})
export const POST = withDriver(
  async ({ session, body }) => ({ settings: await saveDriverAlertSettings(session, await body()) }),
  { write: true },
);

// Any other method: 405 in the API's error body, with Allow naming the methods above
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
