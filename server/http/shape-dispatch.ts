import { notFound } from "@/common/http/errors";
import { preflight } from "./cors";
import { allowHeader, notAllowed } from "./method-not-allowed";
import { errorResponse } from "./with-api";

// Why a dispatcher: Next.js routes a folder by position only, and the eventSubscription and
// eventNotification paths (app/[env]/api/_lib/event-routes.ts) mean different things at the same position
// (a number is an id, anything else an event type). One catch-all route per prefix hands its
// segments here; this picks the shape they fit and hands over to that shape's handler, a withApi
// operation like any other route, which parses, authenticates and translates errors as usual.
// The dispatcher itself answers only what no operation can: the API's 404 for a shape that does
// not exist and its 405 for a method the shape does not serve.

type Handler = (
  request: Request,
  context: { params: Promise<Record<string, string | string[] | undefined>> },
) => Promise<Response>;
type Served = "GET" | "POST" | "DELETE";
export type Shape = { shape: string; names: string[]; ops: Partial<Record<Served, Handler>> };

// n: a number (an id); N: the literal eventNotification; t: anything else (an event type).
const shapeOf = (segments: string[]) =>
  segments.map((s) => (/^\d+$/.test(s) ? "n" : s === "eventNotification" ? "N" : "t")).join("");
const fits = (shape: string, segments: string[]) =>
  shape.length === segments.length &&
  [...shape].every((c, i) => (segments[i]!.includes("\u0000") ? c !== "N" : c === shapeOf([segments[i]!])));

export function dispatchByShape(shapes: Shape[]) {
  const route =
    (method: Served | "PUT" | "PATCH"): Handler =>
    async (request, context) => {
      const raw = await context.params;
      const segments = Array.isArray(raw.path) ? raw.path.filter((s) => s !== "") : [];
      // Without U+0000 exactly one shape fits. A segment holding it is neither an id nor a type:
      // it may take either place (the one whose shape serves the method first), and the
      // operation's wrapper refuses it as that field (400, docs/api.md#errors) instead of a 404.
      const fitting = shapes.filter((s) => fits(s.shape, segments));
      const shape = fitting.find((s) => method in s.ops) ?? fitting[0];
      if (!shape) return errorResponse(notFound("path"));
      const handler = shape.ops[method as Served];
      // A path that exists but not for this method: 405 naming the methods its shape serves.
      if (!handler) return notAllowed(allowHeader(Object.keys(shape.ops)), method);
      const named = Object.fromEntries(shape.names.flatMap((name, i) => (name ? [[name, segments[i]!]] : [])));
      // The operation gets its named segments, not the catch-all's list (so a refusal names the field).
      const { path: _segments, ...prefix } = raw;
      return handler(request, { params: Promise.resolve({ ...prefix, ...named }) });
    };
  return {
    GET: route("GET"),
    POST: route("POST"),
    DELETE: route("DELETE"),
    PUT: route("PUT"),
    PATCH: route("PATCH"),
    OPTIONS: preflight,
  };
}
