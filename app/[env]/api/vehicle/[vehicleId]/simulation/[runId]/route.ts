import { preflight } from "@/server/http/cors";
import { deleted, one } from "@/server/http/results";
import { otherMethods } from "@/server/http/method-not-allowed";
import { withApi } from "@/server/http/with-api";
import { simulatorOperations as ops } from "@/server/simulator/operations";
import { getSimulation, stopSimulation } from "@/server/simulator/service";

// GET /vehicle/{id}/simulation/{runId} — one simulation and its progress
export const GET = withApi(ops.get, async ({ principal, params }) =>
  one(await getSimulation(principal, params.vehicleId, params.runId)),
);

// DELETE /vehicle/{id}/simulation/{runId} — stop it
export const DELETE = withApi(ops.stop, async ({ principal, params }) => {
  await stopSimulation(principal, params.vehicleId, params.runId);
  return deleted();
});

export const OPTIONS = preflight;

// Any other method: 405 with Allow naming the methods above
export const { PUT, PATCH, POST } = otherMethods(ops.get, ops.stop);
