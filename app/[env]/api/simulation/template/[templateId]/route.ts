import { preflight } from "@/server/http/cors";
import { one } from "@/server/http/results";
import { otherMethods } from "@/server/http/method-not-allowed";
import { withApi } from "@/server/http/with-api";
import { simulatorOperations as ops } from "@/server/simulator/operations";
import { getTemplate } from "@/server/simulator/service";

// GET /simulation/template/{templateId} — one route template
export const GET = withApi(ops.getTemplate, async ({ principal, params }) =>
  one(getTemplate(principal, params.templateId)),
);

export const OPTIONS = preflight;

// Any other method: 405 with Allow naming the methods above
export const { PUT, PATCH, POST, DELETE } = otherMethods(ops.getTemplate);
