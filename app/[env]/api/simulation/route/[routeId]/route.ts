import { preflight } from "@/server/http/cors";
import { deleted, one } from "@/server/http/results";
import { withApi } from "@/server/http/with-api";
import { simulatorOperations as ops } from "@/server/simulator/operations";
import { deleteSavedRoute, getSavedRoute } from "@/server/simulator/service";

export { PUT, PATCH, POST } from "@/server/http/method-not-allowed";

// GET /simulation/route/{routeId} — one saved route of this app
export const GET = withApi(ops.getRoute, async ({ principal, params }) => one(await getSavedRoute(principal, params.routeId)));

// DELETE /simulation/route/{routeId} — delete it
export const DELETE = withApi(ops.deleteRoute, async ({ principal, params }) => {
  await deleteSavedRoute(principal, params.routeId);
  return deleted();
});

export const OPTIONS = preflight;
