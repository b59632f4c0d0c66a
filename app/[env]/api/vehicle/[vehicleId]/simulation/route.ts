import { preflight } from "@/server/http/cors";
import { list, one } from "@/server/http/results";
import { otherMethods } from "@/server/http/method-not-allowed";
import { withApi } from "@/server/http/with-api";
import { simulatorOperations as ops } from "@/server/simulator/operations";
import { listSimulations, startSimulation } from "@/server/simulator/service";

// GET /vehicle/{id}/simulation/ — the vehicle's simulations with their progress, newest first
export const GET = withApi(ops.list, async ({ principal, params, query }) => {
  const page = { limit: query.searchLimit, offset: query.searchOffset };
  const { items, total } = await listSimulations(principal, params.vehicleId, {
    page,
    order: query.sortOrder ?? "desc",
  });
  return list(items, total, page);
});

// POST /vehicle/{id}/simulation/ — start a simulated trip (sandbox only)
export const POST = withApi(ops.start, async ({ principal, params, body }) =>
  one(await startSimulation(principal, params.vehicleId, body)),
);

export const OPTIONS = preflight;

// Any other method: 405 with Allow naming the methods above
export const { PUT, PATCH, DELETE } = otherMethods(ops.list, ops.start);
