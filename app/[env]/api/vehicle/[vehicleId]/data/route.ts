import { preflight } from "@/server/http/cors";
import { list } from "@/server/http/results";
import { otherMethods } from "@/server/http/method-not-allowed";
import { withApi } from "@/server/http/with-api";
import { telemetryOperations as ops } from "@/server/telemetry/operations";
import { dataOfVehicle } from "@/server/telemetry/service";

// GET /vehicle/{id}/data/ — the vehicle's data points (key, mostRecentOnly)
export const GET = withApi(ops.listData, async ({ principal, params, query }) => {
  const page = { limit: query.searchLimit, offset: query.searchOffset };
  const { items, total, paged } = await dataOfVehicle(principal, params.vehicleId, {
    key: query.key,
    mostRecentOnly: query.mostRecentOnly,
    page,
    order: query.sortOrder ?? "desc",
  });
  return list(items, total, paged ? page : { limit: items.length, offset: 0 });
});

export const OPTIONS = preflight;

// Any other method: 405 with Allow naming the methods above
export const { PUT, PATCH, DELETE, POST } = otherMethods(ops.listData);
