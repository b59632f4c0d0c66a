import { preflight } from "@/server/http/cors";
import { list, one } from "@/server/http/results";
import { otherMethods } from "@/server/http/method-not-allowed";
import { withApi } from "@/server/http/with-api";
import { ingestDataSets } from "@/server/telemetry/ingest";
import { telemetryOperations as ops } from "@/server/telemetry/operations";
import { dataSetsOfVehicle } from "@/server/telemetry/service";

// GET /vehicle/{id}/dataSet/ — the vehicle's data sets, newest first
export const GET = withApi(ops.listDataSets, async ({ principal, params, query }) => {
  const page = { limit: query.searchLimit, offset: query.searchOffset };
  const { items, total } = await dataSetsOfVehicle(principal, params.vehicleId, {
    page,
    order: query.sortOrder ?? "desc",
  });
  return list(items, total, page);
});

// POST /vehicle/{id}/dataSet/ — one data set, or a batch (array) of up to 500 (server/telemetry/ingest/)
export const POST = withApi(ops.postDataSet, async ({ principal, params, body }) => {
  const stored = await ingestDataSets(principal, params.vehicleId, Array.isArray(body) ? body : [body]);
  return Array.isArray(body) ? list(stored, stored.length, { limit: stored.length, offset: 0 }) : one(stored[0]);
});

export const OPTIONS = preflight;

// Any other method: 405 with Allow naming the methods above
export const { PUT, PATCH, DELETE } = otherMethods(ops.listDataSets, ops.postDataSet);
