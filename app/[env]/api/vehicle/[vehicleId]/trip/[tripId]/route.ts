import { preflight } from "@/server/http/cors";
import { one } from "@/server/http/results";
import { withApi } from "@/server/http/with-api";
import { telemetryOperations as ops } from "@/server/telemetry/operations";
import { tripOfVehicle } from "@/server/telemetry/service";

export { PUT, PATCH, DELETE, POST } from "@/server/http/method-not-allowed";

// GET /vehicle/{id}/trip/{tripId} — one trip with its data sets, newest first
export const GET = withApi(ops.getTrip, async ({ principal, params }) => one(await tripOfVehicle(principal, params.vehicleId, params.tripId)));

export const OPTIONS = preflight;
