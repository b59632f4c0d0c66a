import { preflight } from "@/server/http/cors";
import { list } from "@/server/http/results";
import { withApi } from "@/server/http/with-api";
import { simulatorOperations as ops } from "@/server/simulator/operations";
import { listTemplates } from "@/server/simulator/service";

export { PUT, PATCH, POST, DELETE } from "@/server/http/method-not-allowed";

// GET /simulation/template/ — the shared route templates
export const GET = withApi(ops.listTemplates, async ({ principal }) => {
  const items = listTemplates(principal);
  return list(items, items.length, { limit: items.length, offset: 0 });
});

export const OPTIONS = preflight;
