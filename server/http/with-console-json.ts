import type { z } from "zod";
import { ApiError } from "@/common/http/errors";
import { getPartnerSession, type PartnerSession } from "@/server/surfaces/console/session";
import { consoleFailure } from "./console-failure";

// The one wrapper of the console's JSON routes (what its pages poll or stream): the signed-in
// partner or 401, the path's ids parsed or 404, and every error translated by consoleFailure,
// answered as `{ error }` with its status (these routes have no form to mark fields on), never
// cached. A handler returns data (sent as JSON) or a Response of its own (a stream).

type Context = { params: Promise<Record<string, string>> };

export function withConsoleJson<P extends z.ZodType>(
  params: P,
  notFoundMessage: string,
  handler: (input: { partner: PartnerSession; params: z.output<P>; request: Request }) => Promise<unknown>,
): (request: Request, context: Context) => Promise<Response> {
  return async (request, context) => {
    try {
      const partner = await getPartnerSession();
      if (!partner) throw new ApiError("UNAUTHORIZED", "Your session has ended. Sign in again.");
      const parsed = params.safeParse(await context.params);
      if (!parsed.success) throw new ApiError("NOT_FOUND", notFoundMessage);
      const result = await handler({ partner, params: parsed.data, request });
      return result instanceof Response ? result : answer(result, 200);
    } catch (error) {
      const failure = consoleFailure(error, "a console JSON route");
      // The error's own headers too: a 429's Retry-After, an outage's.
      return answer({ error: failure.body.error }, failure.status, failure.headers);
    }
  };
}

const answer = (body: unknown, status: number, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers: { "Cache-Control": "no-store", ...headers } });
