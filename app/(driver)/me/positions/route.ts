import { withDriver, otherMethods } from "@/server/http/with-driver";
import { listDriverVehicles } from "@/server/surfaces/driver/vehicles";

// GET /me/positions — the signed-in driver's vehicles with their last positions (the map polls it)
export const GET = withDriver(
  async ({ session }) => ({ vehicles: await listDriverVehicles(session), at: new Date().toISOString() }),
  { write: false },
);

// Any other method: 405 in the API's error body, with Allow naming the methods above
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
