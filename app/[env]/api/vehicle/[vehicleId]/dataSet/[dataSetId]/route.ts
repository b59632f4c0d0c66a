import { preflight } from "@/server/http/cors";
import { one } from "@/server/http/results";
import { otherMethods } from "@/server/http/method-not-allowed";
import { withApi } from "@/server/http/with-api";
import { telemetryOperations as ops } from "@/server/telemetry/operations";
import { dataSetOfVehicle } from "@/server/telemetry/service";

// GET /vehicle/{id}/dataSet/{dataSetId} — one data set with its data points
export const GET = withApi(ops.getDataSet, async ({ principal, params }) =>
  one(await dataSetOfVehicle(principal, params.vehicleId, params.dataSetId)),
);

export const OPTIONS = preflight;

// Any other method: 405 with Allow naming the methods above
export const { PUT, PATCH, DELETE, POST } = otherMethods(ops.getDataSet);
