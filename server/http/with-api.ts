import type { z } from "zod";
import type { Principal } from "@/server/api-auth/principal";
import type { Environment } from "@/db/schema";
import { readJsonBody } from "./body";
import { corsHeaders } from "./cors";
import { errorBody } from "./error-body";
import { apiErrorOf } from "./refusal";
import { environmentFromSegment } from "./environment";
import { ApiError, notFound } from "@/common/http/errors";
import type { Operation } from "@/common/http/operation";
import { pagingActions } from "@/common/http/paging";
import { admitApiRequest, refuseOverLimit, withRateLimitHeaders } from "./rate-limit";
import { publicOrigin } from "@/server/platform/request/public-origin";
import type { ApiResult } from "./results";
import { refuseNul } from "@/common/http/nul";
import { parseOrThrow } from "@/common/http/zod-errors";
import type { Verdict } from "@/server/platform/rate-limits/verdict";
import { asCaller, noteWrite } from "@/db/replica";
import { noteApiAnswer } from "@/server/access-log/note";

export type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

export type HandlerInput<O extends Operation> = {
  principal: Principal;
  environment: Environment;
  params: O extends Operation<infer P, z.ZodType, z.ZodType> ? z.output<P> : never;
  query: O extends Operation<z.ZodType, infer Q, z.ZodType> ? z.output<Q> : never;
  body: O extends Operation<z.ZodType, z.ZodType, infer B> ? z.output<B> : never;
  request: Request;
};

export type RouteHandler = (request: Request, context: RouteContext) => Promise<Response>;

// The one wrapper every API route goes through: environment, bearer auth, parsing
// of params, query and body with the operation's zod schemas, the envelope, CORS, and the
// translation of every error into the API's error shape (docs/api.md#errors).
export function withApi<O extends Operation>(
  op: O,
  handler: (input: HandlerInput<O>) => Promise<ApiResult>,
): RouteHandler {
  return async (request: Request, context: RouteContext): Promise<Response> => {
    let quota: Verdict[] = [];
    try {
      const admitted = await admitOperation(op, request, context, (verdicts) => (quota = verdicts));
      const { principal, environment } = admitted;
      // Heavy reads may run on a replica (db/replica.ts), except right after the caller's own
      // write: the caller is the token's app and account, and any request that may change
      // something counts as a write, answered or not.
      const caller = `${environment}:${principal.appId}:${principal.accountId ?? "app"}`;
      const writes = request.method !== "GET" && request.method !== "HEAD";
      const result = await asCaller(caller, async () => {
        try {
          return await handler(admitted);
        } finally {
          if (writes) noteWrite(caller);
        }
      });
      // Noted in memory only: the access log is written off the request's path (server/access-log/).
      if (op.access && principal) noteApiAnswer(op.access, principal, itemsOf(result));
      return withRateLimitHeaders(
        json(
          200,
          envelope(op, result, () => publicUrl(new URL(request.url))),
        ),
        quota,
      );
    } catch (error) {
      return withRateLimitHeaders(errorResponse(error), quota);
    }
  };
}

/**
 * What every API request goes through before its handler: the environment, the token and the
 * rate limits (one statement), the operation's auth rule, and params, query and body parsed. Hands
 * the buckets drawn on to `metered` as soon as they are known, so that a refusal can say how they stand.
 */
export async function admitOperation<O extends Operation>(
  op: O,
  request: Request,
  context: RouteContext,
  metered: (verdicts: Verdict[]) => void,
): Promise<HandlerInput<O>> {
  const rawParams = await context.params;
  const environment = environmentFromSegment(typeof rawParams.env === "string" ? rawParams.env : undefined);
  // One statement looks the token up and meters the request; over the limit answers 429
  // before anything else is looked at, a token that does not work 401 (docs/api.md#rate-limits).
  const admission = await admitApiRequest(request, environment);
  metered(admission.verdicts);
  await refuseOverLimit(admission.verdicts);
  if (admission.refused) throw admission.refused;
  const principal = admission.principal;
  if (op.auth === "client" && principal?.kind !== "client") {
    throw new ApiError("FORBIDDEN", "This call requires a client-credentials token.");
  }
  const parsed = await parseRequest(op, rawParams, new URL(request.url), request);
  return { principal, environment, ...parsed, request } as HandlerInput<O>;
}

async function parseRequest(op: Operation, rawParams: Record<string, unknown>, url: URL, request: Request) {
  // A path segment that cannot be an id names nothing: 404, like an unknown id.
  const params = op.params ? parsePathOrNotFound(op.params, rawParams) : undefined;
  // U+0000 in a query value (PostgreSQL cannot compare it) is refused like any invalid field.
  const rawQuery = Object.fromEntries(url.searchParams);
  refuseNul(rawQuery, "query");
  const query = op.query ? parseOrThrow(op.query, rawQuery, "query") : undefined;
  const body = op.body ? parseOrThrow(op.body, await readJsonBody(request), "request body") : undefined;
  return { params, query, body };
}

function parsePathOrNotFound<T extends z.ZodType>(schema: T, raw: unknown): z.output<T> {
  // U+0000 is not an id nor a wrong one, but input that cannot be stored or compared: 400 INVALID.
  refuseNul(raw, "path");
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw notFound();
  return parsed.data;
}

// Paging links are absolute on the configured origin, whatever Host the request came with.
function publicUrl(url: URL): URL {
  return new URL(url.pathname + url.search, publicOrigin());
}

// The public URL is only needed for paging links, so it is worked out only for lists.
function envelope(op: Operation, result: ApiResult, url: () => URL): Record<string, unknown> {
  const key = op.response === "result" ? "result" : op.response.key;
  switch (result.kind) {
    case "deleted":
      return { result: "OK", totalRecords: 1, actions: [] };
    case "one":
      return { [key]: result.value, totalRecords: result.totalRecords, actions: [] };
    case "list":
      return {
        [key]: result.items,
        totalRecords: result.total,
        actions: pagingActions(url(), result.page, result.total),
      };
    case "cursorPage":
      return { [key]: result.items, ...result.members, totalRecords: result.items.length, actions: [] };
  }
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store", ...corsHeaders, ...headers },
  });
}

export function errorResponse(error: unknown): Response {
  const answered = apiErrorOf(error, "an API route");
  return json(answered.status, errorBody(answered), answered.headers);
}

function itemsOf(result: ApiResult): unknown[] {
  switch (result.kind) {
    case "one":
      return [result.value];
    case "list":
    case "cursorPage":
      return result.items;
    case "deleted":
      return [];
  }
}
