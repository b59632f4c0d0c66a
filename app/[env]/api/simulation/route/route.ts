import { preflight } from "@/server/http/cors";
import { list, one } from "@/server/http/results";
import { otherMethods } from "@/server/http/method-not-allowed";
import { withApi } from "@/server/http/with-api";
import { simulatorOperations as ops } from "@/server/simulator/operations";
import { createSavedRoute, listSavedRoutes } from "@/server/simulator/service";

// GET /simulation/route/ — this app's saved routes, newest first
export const GET = withApi(ops.listRoutes, async ({ principal, query }) => {
  const page = { limit: query.searchLimit, offset: query.searchOffset };
  const { items, total } = await listSavedRoutes(principal, { page, order: query.sortOrder ?? "desc" });
  return list(items, total, page);
});

// POST /simulation/route/ — save a route (routed now, stored as geometry)
export const POST = withApi(ops.createRoute, async ({ principal, body }) =>
  one(await createSavedRoute(principal, body)),
);

export const OPTIONS = preflight;

// Any other method: 405 with Allow naming the methods above
export const { PUT, PATCH, DELETE } = otherMethods(ops.listRoutes, ops.createRoute);
