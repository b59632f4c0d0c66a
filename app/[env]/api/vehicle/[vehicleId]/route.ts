import { preflight } from "@/server/http/cors";
import { deleted, one } from "@/server/http/results";
import { otherMethods } from "@/server/http/method-not-allowed";
import { withApi } from "@/server/http/with-api";
import { vehicleOperations as ops } from "@/server/vehicles/operations";
import { deleteVehicle, readVehicle, updateVehicle } from "@/server/vehicles/service";

// GET /vehicle/{id} — one vehicle of the caller, by vehicleId or deviceId
export const GET = withApi(ops.get, async ({ principal, params }) =>
  one(await readVehicle(principal, params.vehicleId)),
);

// POST /vehicle/{id} — update the fields sent
export const POST = withApi(ops.update, async ({ principal, params, body }) =>
  one(await updateVehicle(principal, params.vehicleId, body)),
);

// DELETE /vehicle/{id} — delete the vehicle and its data
export const DELETE = withApi(ops.remove, async ({ principal, params }) => {
  await deleteVehicle(principal, params.vehicleId);
  return deleted();
});

export const OPTIONS = preflight;

// Any other method: 405 with Allow naming the methods above
export const { PUT, PATCH } = otherMethods(ops.get, ops.update, ops.remove);
