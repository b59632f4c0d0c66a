import { withDriver, otherMethods, pathId } from "@/server/http/with-driver";
import { createDriverShare, listDriverShares } from "@/server/surfaces/driver/shares";

// GET /me/vehicles/{id}/shares — the vehicle's shared-location links that have not ended, with their views
export const GET = withDriver(
  async ({ session, params }) => ({ shares: await listDriverShares(session, pathId(params.vehicleId, "vehicle")) }),
  { write: false },
);

// POST /me/vehicles/{id}/shares — a new link to the vehicle's live location ({"duration": "15m"|"1h"|"8h"|"24h"})
export const POST = withDriver(
  async ({ session, params, body }) => ({
    share: await createDriverShare(session, pathId(params.vehicleId, "vehicle"), await body()),
  }),
  { write: true },
);

// Any other method: 405 in the API's error body, with Allow naming the methods above
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
