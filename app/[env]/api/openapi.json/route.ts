import { env } from "@/server/env";
import { environmentFromSegment } from "@/server/http/environment";
import { requestOrigin } from "@/server/request/origin";
import { errorResponse, json } from "@/server/http/with-api";
import { openApiDocument } from "@/server/openapi/document";
import { notAllowedExcept } from "@/server/http/method-not-allowed";

// GET /openapi.json — the OpenAPI 3.1 document of this environment (no token needed)
export async function GET(request: Request, { params }: { params: Promise<{ env: string }> }) {
  try {
    const environment = environmentFromSegment((await params).env);
    const origin = env().PUBLIC_URL ?? requestOrigin(request);
    return json(200, openApiDocument(environment, origin.replace(/\/$/, "")));
  } catch (error) {
    return errorResponse(error);
  }
}

// Any other method: 405 in the API's error body
const readOnly = notAllowedExcept("GET, HEAD");
export const POST = readOnly;
export const PUT = readOnly;
export const PATCH = readOnly;
export const DELETE = readOnly;
