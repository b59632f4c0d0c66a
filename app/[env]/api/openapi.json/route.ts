import { env } from "@/server/platform/env";
import { environmentFromSegment } from "@/server/http/environment";
import { notAllowedExcept } from "@/server/http/method-not-allowed";
import { json } from "@/server/http/with-api";
import { withApiErrors } from "@/server/http/with-api-errors";
import { openApiDocument } from "@/server/openapi/document";
import { publicOrigin } from "@/server/platform/request/public-origin";

// GET /openapi.json — the OpenAPI 3.1 document of this environment (no token needed)
export const GET = withApiErrors<{ env: string }>(async (_request, params) => {
  const environment = environmentFromSegment(params.env);
  const origin = env().PUBLIC_URL ?? publicOrigin();
  return json(200, openApiDocument(environment, origin.replace(/\/$/, "")));
});

// Any other method: 405 in the API's error body
const readOnly = notAllowedExcept("GET, HEAD");
export const POST = readOnly;
export const PUT = readOnly;
export const PATCH = readOnly;
export const DELETE = readOnly;
