import { preflight } from "@/server/http/cors";
import { list } from "@/server/http/results";
import { otherMethods } from "@/server/http/method-not-allowed";
import { withApi } from "@/server/http/with-api";
import { simulatorOperations as ops } from "@/server/simulator/operations";
import { listTemplates } from "@/server/simulator/service";

// GET /simulation/template/ — the shared route templates
export const GET = withApi(ops.listTemplates, async ({ principal }) => {
  const items = listTemplates(principal);
  return list(items, items.length, { limit: items.length, offset: 0 });
});

export const OPTIONS = preflight;

// Any other method: 405 with Allow naming the methods above
export const { PUT, PATCH, POST, DELETE } = otherMethods(ops.listTemplates);
