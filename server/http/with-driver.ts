import { crossSitePost } from "./cross-site";
import { getDriverSession, type DriverSession } from "@/server/surfaces/driver/session";
import { ApiError, notFound } from "@/common/http/errors";
import { idParam } from "@/common/http/fields";
import { readJsonBody } from "./body";
import { errorBody } from "./error-body";
import { apiErrorOf } from "./refusal";
import { allowHeader } from "./method-not-allowed";

// The one wrapper of the driver site's JSON routes (/me/…): the signed-in driver from the
// session (never a partner token), the cross-site check on writes, JSON in and out, and every
// error of the one type in the API's error shape (errorBody, docs/api.md#errors). A handler returns
// data (sent as JSON) or a Response built in server/http (the live map's stream). Writes take JSON only: a page on another site cannot send
// it without a CORS preflight, which these routes never answer, and the session cookie is
// SameSite=Lax besides.

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

export type DriverInput = {
  session: DriverSession;
  params: Record<string, string | string[] | undefined>;
  request: Request;
  body: () => Promise<unknown>;
};

const headers = { "Content-Type": "application/json", "Cache-Control": "no-store" };

const driverJson = (status: number, body: unknown, extra: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { ...headers, ...extra } });

export function withDriver(handler: (input: DriverInput) => Promise<unknown>, { write }: { write: boolean }) {
  return async (request: Request, context: RouteContext): Promise<Response> => {
    try {
      if (write && crossSitePost(request))
        throw new ApiError("FORBIDDEN", "This request came from another site and was ignored.");
      const session = await getDriverSession();
      if (!session) throw new ApiError("UNAUTHORIZED", "Sign in to continue.");
      const params = await context.params;
      const result = await handler({ session, params, request, body: () => readJsonBody(request) });
      // A Response of the handler's own: a stream (/me/positions/stream), built in server/http.
      return result instanceof Response ? result : driverJson(200, result);
    } catch (error) {
      const answered = apiErrorOf(error, "a driver route");
      // The error's own headers too: a 429's Retry-After.
      return driverJson(answered.status, errorBody(answered), answered.headers);
    }
  };
}

/**
 * The 405 handlers of a driver route file for the methods it does not serve, in the API's error
 * body with Allow naming those it does (Next.js's default 405 has neither), and its OPTIONS answer
 * naming the same (Next.js's own would list every export, the 405 handlers included):
 * `export const { PUT, PATCH, OPTIONS } = otherMethods({ GET, POST, DELETE });`
 */
export function otherMethods(served: Partial<Record<"GET" | "POST" | "PATCH" | "DELETE", unknown>>) {
  const allow = allowHeader(Object.keys(served));
  const handler = async (request: Request) => {
    const error = new ApiError("METHOD_NOT_ALLOWED", `${request.method} is not supported on this path.`);
    return new Response(JSON.stringify(errorBody(error)), { status: 405, headers: { ...headers, Allow: allow } });
  };
  const options = async () => new Response(null, { status: 204, headers: { Allow: allow } });
  return { GET: handler, POST: handler, PUT: handler, PATCH: handler, DELETE: handler, OPTIONS: options };
}

/** A numeric id from the path; anything else names nothing (404, like an unknown id). */
export function pathId(value: unknown, what: string): number {
  const parsed = idParam.safeParse(value);
  if (!parsed.success) throw notFound(what);
  return parsed.data;
}
