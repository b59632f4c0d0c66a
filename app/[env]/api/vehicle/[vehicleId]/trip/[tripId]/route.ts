import { preflight } from "@/server/http/cors";
import { one } from "@/server/http/results";
import { otherMethods } from "@/server/http/method-not-allowed";
import { withApi } from "@/server/http/with-api";
import { telemetryOperations as ops } from "@/server/telemetry/operations";
import { tripOfVehicle } from "@/server/telemetry/service";

// GET /vehicle/{id}/trip/{tripId} — one trip with its data sets, newest first
export const GET = withApi(ops.getTrip, async ({ principal, params }) =>
  one(await tripOfVehicle(principal, params.vehicleId, params.tripId)),
);

export const OPTIONS = preflight;

// Any other method: 405 with Allow naming the methods above
export const { PUT, PATCH, DELETE, POST } = otherMethods(ops.getTrip);
