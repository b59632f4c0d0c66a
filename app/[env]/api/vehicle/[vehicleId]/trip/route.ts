import { preflight } from "@/server/http/cors";
import { list } from "@/server/http/results";
import { otherMethods } from "@/server/http/method-not-allowed";
import { withApi } from "@/server/http/with-api";
import { telemetryOperations as ops } from "@/server/telemetry/operations";
import { tripsOfVehicle } from "@/server/telemetry/service";

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

// Any other method: 405 with Allow naming the methods above
export const { PUT, PATCH, DELETE, POST } = otherMethods(ops.listTrips);
