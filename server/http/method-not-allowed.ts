import { ApiError } from "@/common/http/errors";
import type { Operation } from "@/common/http/operation";
import { errorResponse } from "./with-api";

// A 405 on an API path carries the API's JSON error body (instead of Next.js's empty default) and
// an Allow header naming the methods the path serves (RFC 9110 §15.5.5), worked out from the
// operations the route serves so it cannot drift from them.

const ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/**
 * The Allow header of a path serving these methods: HEAD comes with GET (Next.js answers it from
 * the GET handler), OPTIONS with the CORS preflight every API route serves.
 */
export function allowHeader(methods: Iterable<string>, { preflight = true } = {}): string {
  const served = new Set(methods);
  if (served.has("GET")) served.add("HEAD");
  if (preflight) served.add("OPTIONS");
  return ORDER.filter((m) => served.has(m)).join(", ");
}

/** A 405 in the API's error body with Allow: allow. */
export const notAllowed = (allow: string, method?: string) =>
  errorResponse(
    new ApiError("METHOD_NOT_ALLOWED", `${method ?? "This method"} is not supported on this path.`, [], {
      Allow: allow,
    }),
  );

/** A handler answering 405 with Allow: allow, for each method a route does not serve. */
export const notAllowedExcept = (allow: string) => async (request: Request) => notAllowed(allow, request.method);

/**
 * The 405 handlers of a route file serving these operations, for every method it does not serve:
 * `export const { PUT, PATCH } = otherMethods(ops.get, ops.update, ops.remove);`
 */
export function otherMethods(...served: Pick<Operation, "method">[]) {
  const handler = notAllowedExcept(allowHeader(served.map((op) => op.method)));
  return { GET: handler, POST: handler, PUT: handler, PATCH: handler, DELETE: handler };
}
