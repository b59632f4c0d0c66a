import { preflight } from "@/server/http/cors";
import { one } from "@/server/http/results";
import { withApi } from "@/server/http/with-api";
import { telemetryOperations as ops } from "@/server/telemetry/operations";
import { dataSetOfVehicle } from "@/server/telemetry/service";

export { PUT, PATCH, DELETE, POST } from "@/server/http/method-not-allowed";

// GET /vehicle/{id}/dataSet/{dataSetId} — one data set with its data points
export const GET = withApi(ops.getDataSet, async ({ principal, params }) => one(await dataSetOfVehicle(principal, params.vehicleId, params.dataSetId)));

export const OPTIONS = preflight;
