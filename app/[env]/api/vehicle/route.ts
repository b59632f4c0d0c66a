import { preflight } from "@/server/http/cors";
import { list, one } from "@/server/http/results";
import { otherMethods } from "@/server/http/method-not-allowed";
import { withApi } from "@/server/http/with-api";
import { vehicleOperations as ops } from "@/server/vehicles/operations";
import { createVehicle, listVisibleVehicles } from "@/server/vehicles/service";

// GET /vehicle/ — the caller's vehicles
export const GET = withApi(ops.list, async ({ principal, query }) => {
  const page = { limit: query.searchLimit, offset: query.searchOffset };
  const { items, total } = await listVisibleVehicles(principal, page, query.sortOrder ?? "asc");
  return list(items, total, page);
});

// POST /vehicle/ — add a vehicle
export const POST = withApi(ops.create, async ({ principal, body }) => one(await createVehicle(principal, body)));

export const OPTIONS = preflight;

// Any other method: 405 with Allow naming the methods above
export const { PUT, PATCH, DELETE } = otherMethods(ops.list, ops.create);
