import { withDriver, otherMethods, pathId } from "@/server/http/with-driver";
import { setDriverLocationPause } from "@/server/surfaces/driver/vehicles";

// POST /me/vehicles/{id}/location-pause — pause or resume the vehicle's location ({"paused": boolean})
export const POST = withDriver(
  async ({ session, params, body }) => ({
    vehicle: await setDriverLocationPause(session, pathId(params.vehicleId, "vehicle"), await body()),
  }),
  { write: true },
);

// Any other method: 405 in the API's error body, with Allow naming the method above
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
