import { withDriver, otherMethods, pathId } from "@/server/http/with-driver";
import { deleteDriverVehicle, getDriverVehicle, updateDriverVehicle } from "@/server/surfaces/driver/vehicles";

// GET /me/vehicles/{id} — one of the signed-in driver's vehicles
export const GET = withDriver(
  async ({ session, params }) => ({ vehicle: await getDriverVehicle(session, pathId(params.vehicleId, "vehicle")) }),
  { write: false },
);

// POST /me/vehicles/{id} — edit label, VIN, device and auto-assignment (the API's field errors)
export const POST = withDriver(
  async ({ session, params, body }) => {
    const id = pathId(params.vehicleId, "vehicle");
    return { vehicle: await updateDriverVehicle(session, id, await body()) };
  },
  { write: true },
);

// DELETE /me/vehicles/{id} — delete the vehicle permanently, with all its data
export const DELETE = withDriver(
  async ({ session, params }) => {
    await deleteDriverVehicle(session, pathId(params.vehicleId, "vehicle"));
    return { result: "OK" };
  },
  { write: true },
);

// Any other method: 405 in the API's error body, with Allow naming the methods above
export const { PUT, PATCH, OPTIONS } = otherMethods({ GET, POST, DELETE });
