import { ApiError } from "./errors";
import { errorResponse } from "./with-api";

// Re-exported by API routes for the methods they do not serve, so a 405 carries the API's
// JSON body instead of Next.js's empty default.
const notAllowed = (headers: Record<string, string> = {}) => errorResponse(new ApiError("METHOD_NOT_ALLOWED", "This method is not supported on this path.", [], headers));

export const methodNotAllowed = async () => notAllowed();

/** A 405 in the API's error body naming the methods the path serves. */
export const notAllowedExcept = (allow: string) => async () => notAllowed({ Allow: allow });

export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
export const POST = methodNotAllowed;
