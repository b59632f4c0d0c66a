import { preflight } from "@/server/http/cors";
import { list } from "@/server/http/results";
import { withApi } from "@/server/http/with-api";
import { telemetryOperations as ops } from "@/server/telemetry/operations";
import { tripsOfVehicle } from "@/server/telemetry/service";

export { PUT, PATCH, DELETE, POST } from "@/server/http/method-not-allowed";

// GET /vehicle/{id}/trip/ — the vehicle's trips, newest first
export const GET = withApi(ops.listTrips, async ({ principal, params, query }) => {
  const page = { limit: query.searchLimit, offset: query.searchOffset };
  const { items, total } = await tripsOfVehicle(principal, params.vehicleId, {
    startedAfter: query.startTime,
    startedBefore: query.endTime,
    includeData: query.includeData,
    page,
    order: query.sortOrder ?? "desc",
  });
  return list(items, total, page);
});

export const OPTIONS = preflight;
