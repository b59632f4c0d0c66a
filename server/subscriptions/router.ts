import { preflight } from "@/server/http/cors";
import { notFound } from "@/common/http/errors";
import { allowHeader, notAllowed } from "@/server/http/method-not-allowed";
import { deleted, list, one } from "@/server/http/results";
import { errorResponse, withApi } from "@/server/http/with-api";
import { getNotification, listNotifications } from "@/server/notifications/service";
import { notificationOperations, subscriptionOperations, type PrefixKind } from "./operations";
import { createSubscription, deleteSubscription, getSubscription, listSubscriptions, updateSubscription, type Prefix } from "./service";

// The eventSubscription and eventNotification paths (docs/subscriptions.md) hang off three prefixes
// with up to four segments whose meaning depends on their shape: a number is an id, anything
// else an event type (docs/api.md#environments-and-base-paths). One catch-all route per prefix hands its segments here; the
// table below names the operation for each shape, and the operation's wrapper parses as usual.

type Handler = (request: Request, context: { params: Promise<Record<string, string | string[] | undefined>> }) => Promise<Response>;
type Served = "GET" | "POST" | "DELETE";
type Shape = { shape: string; names: string[]; ops: Partial<Record<Served, Handler>> };

const prefixOf = (kind: PrefixKind, params: object): Prefix => {
  const p = params as { vehicleId?: string; accountId?: number };
  return kind === "vehicle" ? { kind, ref: p.vehicleId! } : kind === "account" ? { kind, id: p.accountId! } : { kind: "system" };
};

const pageOf = (query: { searchLimit: number; searchOffset: number }) => ({ limit: query.searchLimit, offset: query.searchOffset });

function subscriptionShapes(kind: PrefixKind): Shape[] {
  const ops = subscriptionOperations[kind];
  const listing = withApi(ops.list, async ({ principal, params, query }) => {
    const { items, total } = await listSubscriptions(principal, prefixOf(kind, params), null, pageOf(query), query.sortOrder ?? "desc");
    return list(items, total, pageOf(query));
  });
  const byType = withApi(ops.listByType, async ({ principal, params, query }) => {
    const { items, total } = await listSubscriptions(principal, prefixOf(kind, params), params.eventType, pageOf(query), query.sortOrder ?? "desc");
    return list(items, total, pageOf(query));
  });
  const notesOf = (op: typeof ops.subNotes | typeof ops.subNotesByType) =>
    withApi(op, async ({ principal, params, query }) => {
      const scope = { prefix: prefixOf(kind, params), subscriptionId: params.subscriptionId, type: "eventType" in params ? params.eventType : undefined };
      const { items, total } = await listNotifications(principal, scope, pageOf(query), query.sortOrder ?? "desc");
      return list(items, total, pageOf(query));
    });
  const noteOf = (op: typeof ops.subNote | typeof ops.subNoteTyped) =>
    withApi(op, async ({ principal, params }) => {
      const scope = { prefix: prefixOf(kind, params), subscriptionId: params.subscriptionId, type: "eventType" in params ? params.eventType : undefined };
      return one(await getNotification(principal, scope, params.notificationId));
    });
  const typeOf = (params: object) => ("eventType" in params ? (params.eventType as never) : null);
  const read = (op: typeof ops.get | typeof ops.getTyped) => withApi(op, async ({ principal, params }) => one(await getSubscription(principal, prefixOf(kind, params), typeOf(params), params.subscriptionId)));
  const update = (op: typeof ops.update | typeof ops.updateTyped) =>
    withApi(op, async ({ principal, params, body }) => one(await updateSubscription(principal, prefixOf(kind, params), typeOf(params), params.subscriptionId, body)));
  const remove = (op: typeof ops.remove | typeof ops.removeTyped) =>
    withApi(op, async ({ principal, params }) => {
      await deleteSubscription(principal, prefixOf(kind, params), typeOf(params), params.subscriptionId);
      return deleted();
    });

  return [
    { shape: "", names: [], ops: { GET: listing } },
    { shape: "n", names: ["subscriptionId"], ops: { GET: read(ops.get), POST: update(ops.update), DELETE: remove(ops.remove) } },
    {
      shape: "t",
      names: ["eventType"],
      ops: {
        GET: byType,
        POST: withApi(ops.create, async ({ principal, params, body }) => one(await createSubscription(principal, prefixOf(kind, params), params.eventType, body))),
      },
    },
    { shape: "tn", names: ["eventType", "subscriptionId"], ops: { GET: read(ops.getTyped), POST: update(ops.updateTyped), DELETE: remove(ops.removeTyped) } },
    { shape: "nN", names: ["subscriptionId", ""], ops: { GET: notesOf(ops.subNotes) } },
    { shape: "nNt", names: ["subscriptionId", "", "eventType"], ops: { GET: notesOf(ops.subNotesByType) } },
    { shape: "nNn", names: ["subscriptionId", "", "notificationId"], ops: { GET: noteOf(ops.subNote) } },
    { shape: "nNtn", names: ["subscriptionId", "", "eventType", "notificationId"], ops: { GET: noteOf(ops.subNoteTyped) } },
  ];
}

function notificationShapes(kind: "vehicle" | "account"): Shape[] {
  const ops = notificationOperations[kind];
  const listing = (op: typeof ops.notes | typeof ops.notesByType) =>
    withApi(op, async ({ principal, params, query }) => {
      const { items, total } = await listNotifications(principal, { prefix: prefixOf(kind, params), type: "eventType" in params ? params.eventType : undefined }, pageOf(query), query.sortOrder ?? "desc");
      return list(items, total, pageOf(query));
    });
  const reading = (op: typeof ops.note | typeof ops.noteTyped) =>
    withApi(op, async ({ principal, params }) => one(await getNotification(principal, { prefix: prefixOf(kind, params), type: "eventType" in params ? params.eventType : undefined }, params.notificationId)));
  return [
    { shape: "", names: [], ops: { GET: listing(ops.notes) } },
    { shape: "t", names: ["eventType"], ops: { GET: listing(ops.notesByType) } },
    { shape: "n", names: ["notificationId"], ops: { GET: reading(ops.note) } },
    { shape: "tn", names: ["eventType", "notificationId"], ops: { GET: reading(ops.noteTyped) } },
  ];
}

// n: a number (an id); N: the literal eventNotification; t: anything else (an event type).
const shapeOf = (segments: string[]) => segments.map((s) => (/^\d+$/.test(s) ? "n" : s === "eventNotification" ? "N" : "t")).join("");
const fits = (shape: string, segments: string[]) =>
  shape.length === segments.length && [...shape].every((c, i) => (segments[i]!.includes("\u0000") ? c !== "N" : c === shapeOf([segments[i]!])));

function dispatcher(shapes: Shape[]) {
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
  return { GET: route("GET"), POST: route("POST"), DELETE: route("DELETE"), PUT: route("PUT"), PATCH: route("PATCH"), OPTIONS: preflight };
}

export const subscriptionRoutes = (kind: PrefixKind) => dispatcher(subscriptionShapes(kind));
export const notificationRoutes = (kind: "vehicle" | "account") => dispatcher(notificationShapes(kind));
