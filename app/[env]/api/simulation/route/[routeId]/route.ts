import { preflight } from "@/server/http/cors";
import { deleted, one } from "@/server/http/results";
import { otherMethods } from "@/server/http/method-not-allowed";
import { withApi } from "@/server/http/with-api";
import { simulatorOperations as ops } from "@/server/simulator/operations";
import { deleteSavedRoute, getSavedRoute } from "@/server/simulator/service";

// GET /simulation/route/{routeId} — one saved route of this app
export const GET = withApi(ops.getRoute, async ({ principal, params }) =>
  one(await getSavedRoute(principal, params.routeId)),
);

// DELETE /simulation/route/{routeId} — delete it
export const DELETE = withApi(ops.deleteRoute, async ({ principal, params }) => {
  await deleteSavedRoute(principal, params.routeId);
  return deleted();
});

export const OPTIONS = preflight;

// Any other method: 405 with Allow naming the methods above
export const { PUT, PATCH, POST } = otherMethods(ops.getRoute, ops.deleteRoute);
