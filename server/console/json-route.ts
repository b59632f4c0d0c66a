import type { z } from "zod";
import { ConsoleError } from "./errors";
import { getPartnerSession, type PartnerSession } from "./session";

// The one wrapper of the console's JSON routes (what its pages poll or stream): the signed-in
// partner or 401, the path's ids parsed or 404, and a ConsoleError answered as `{ error }` with its
// status, never cached. A handler returns data (sent as JSON) or a Response of its own (a stream).

type Context = { params: Promise<Record<string, string>> };

export function withConsoleJson<P extends z.ZodType>(
  params: P,
  notFoundMessage: string,
  handler: (input: { partner: PartnerSession; params: z.output<P>; request: Request }) => Promise<unknown>,
): (request: Request, context: Context) => Promise<Response> {
  return async (request, context) => {
    const partner = await getPartnerSession();
    if (!partner) return answer({ error: "Your session has ended. Sign in again." }, 401);
    const parsed = params.safeParse(await context.params);
    if (!parsed.success) return answer({ error: notFoundMessage }, 404);
    try {
      const result = await handler({ partner, params: parsed.data, request });
      return result instanceof Response ? result : answer(result, 200);
    } catch (error) {
      if (error instanceof ConsoleError) return answer({ error: error.message }, error.status);
      throw error;
    }
  };
}

const answer = (body: unknown, status: number) => Response.json(body, { status, headers: { "Cache-Control": "no-store" } });
