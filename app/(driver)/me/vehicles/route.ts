import { withDriver, otherMethods } from "@/server/http/with-driver";
import { addDriverVehicle } from "@/server/surfaces/driver/vehicles";

// POST /me/vehicles — add a vehicle to the signed-in driver's account
export const POST = withDriver(
  async ({ session, body }) => ({ vehicle: await addDriverVehicle(session, await body()) }),
  { write: true },
);

// Any other method: 405 in the API's error body, with Allow naming the methods above
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
