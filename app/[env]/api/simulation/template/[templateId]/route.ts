import { preflight } from "@/server/http/cors";
import { one } from "@/server/http/results";
import { withApi } from "@/server/http/with-api";
import { simulatorOperations as ops } from "@/server/simulator/operations";
import { getTemplate } from "@/server/simulator/service";

export { PUT, PATCH, POST, DELETE } from "@/server/http/method-not-allowed";

// GET /simulation/template/{templateId} — one route template
export const GET = withApi(ops.getTemplate, async ({ principal, params }) => one(getTemplate(principal, params.templateId)));

export const OPTIONS = preflight;
