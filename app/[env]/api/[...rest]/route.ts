import { preflight } from "@/server/http/cors";
import { notFound } from "@/common/http/errors";
import { errorResponse } from "@/server/http/with-api";

// Any other path under the API base: the API's 404 error body rather than an HTML page.
const unknownPath = async () => errorResponse(notFound("path"));

export const GET = unknownPath;
export const POST = unknownPath;
export const PUT = unknownPath;
export const PATCH = unknownPath;
export const DELETE = unknownPath;
export const OPTIONS = preflight;
