import { getNotification, listNotifications } from "@/server/notifications/service";
import { notificationOperations, subscriptionOperations, type PrefixKind } from "@/server/subscriptions/operations";
import {
  createSubscription,
  deleteSubscription,
  getSubscription,
  listSubscriptions,
  updateSubscription,
  type Prefix,
} from "@/server/subscriptions/service";
import { deleted, list, one } from "@/server/http/results";
import { dispatchByShape, type Shape } from "@/server/http/shape-dispatch";
import { withApi } from "@/server/http/with-api";

// The handlers of the eventSubscription and eventNotification routes, kept beside them (the
// routes of the three prefixes share them). Their paths (docs/subscriptions.md) hang off three
// prefixes with up to four segments whose meaning depends on their shape: a number is an id,
// anything else an event type (docs/api.md#environments-and-base-paths). One catch-all route per
// prefix hands its segments to dispatchByShape (server/http/shape-dispatch.ts), which picks the
// operation this table names for their shape; the operation's wrapper parses as usual.

const prefixOf = (kind: PrefixKind, params: object): Prefix => {
  const p = params as { vehicleId?: string; accountId?: number };
  return kind === "vehicle"
    ? { kind, ref: p.vehicleId! }
    : kind === "account"
      ? { kind, id: p.accountId! }
      : { kind: "system" };
};

const pageOf = (query: { searchLimit: number; searchOffset: number }) => ({
  limit: query.searchLimit,
  offset: query.searchOffset,
});

function subscriptionShapes(kind: PrefixKind): Shape[] {
  const ops = subscriptionOperations[kind];
  const listing = withApi(ops.list, async ({ principal, params, query }) => {
    const { items, total } = await listSubscriptions(
      principal,
      prefixOf(kind, params),
      null,
      pageOf(query),
      query.sortOrder ?? "desc",
    );
    return list(items, total, pageOf(query));
  });
  const byType = withApi(ops.listByType, async ({ principal, params, query }) => {
    const { items, total } = await listSubscriptions(
      principal,
      prefixOf(kind, params),
      params.eventType,
      pageOf(query),
      query.sortOrder ?? "desc",
    );
    return list(items, total, pageOf(query));
  });
  const notesOf = (op: typeof ops.subNotes | typeof ops.subNotesByType) =>
    withApi(op, async ({ principal, params, query }) => {
      const scope = {
        prefix: prefixOf(kind, params),
        subscriptionId: params.subscriptionId,
        type: "eventType" in params ? params.eventType : undefined,
      };
      const { items, total } = await listNotifications(principal, scope, pageOf(query), query.sortOrder ?? "desc");
      return list(items, total, pageOf(query));
    });
  const noteOf = (op: typeof ops.subNote | typeof ops.subNoteTyped) =>
    withApi(op, async ({ principal, params }) => {
      const scope = {
        prefix: prefixOf(kind, params),
        subscriptionId: params.subscriptionId,
        type: "eventType" in params ? params.eventType : undefined,
      };
      return one(await getNotification(principal, scope, params.notificationId));
    });
  const typeOf = (params: object) => ("eventType" in params ? (params.eventType as never) : null);
  const read = (op: typeof ops.get | typeof ops.getTyped) =>
    withApi(op, async ({ principal, params }) =>
      one(await getSubscription(principal, prefixOf(kind, params), typeOf(params), params.subscriptionId)),
    );
  const update = (op: typeof ops.update | typeof ops.updateTyped) =>
    withApi(op, async ({ principal, params, body }) =>
      one(await updateSubscription(principal, prefixOf(kind, params), typeOf(params), params.subscriptionId, body)),
    );
  const remove = (op: typeof ops.remove | typeof ops.removeTyped) =>
    withApi(op, async ({ principal, params }) => {
      await deleteSubscription(principal, prefixOf(kind, params), typeOf(params), params.subscriptionId);
      return deleted();
    });

  return [
    { shape: "", names: [], ops: { GET: listing } },
    {
      shape: "n",
      names: ["subscriptionId"],
      ops: { GET: read(ops.get), POST: update(ops.update), DELETE: remove(ops.remove) },
    },
    {
      shape: "t",
      names: ["eventType"],
      ops: {
        GET: byType,
        POST: withApi(ops.create, async ({ principal, params, body }) =>
          one(await createSubscription(principal, prefixOf(kind, params), params.eventType, body)),
        ),
      },
    },
    {
      shape: "tn",
      names: ["eventType", "subscriptionId"],
      ops: { GET: read(ops.getTyped), POST: update(ops.updateTyped), DELETE: remove(ops.removeTyped) },
    },
    { shape: "nN", names: ["subscriptionId", ""], ops: { GET: notesOf(ops.subNotes) } },
    { shape: "nNt", names: ["subscriptionId", "", "eventType"], ops: { GET: notesOf(ops.subNotesByType) } },
    { shape: "nNn", names: ["subscriptionId", "", "notificationId"], ops: { GET: noteOf(ops.subNote) } },
    {
      shape: "nNtn",
      names: ["subscriptionId", "", "eventType", "notificationId"],
      ops: { GET: noteOf(ops.subNoteTyped) },
    },
  ];
}

function notificationShapes(kind: "vehicle" | "account"): Shape[] {
  const ops = notificationOperations[kind];
  const listing = (op: typeof ops.notes | typeof ops.notesByType) =>
    withApi(op, async ({ principal, params, query }) => {
      const { items, total } = await listNotifications(
        principal,
        { prefix: prefixOf(kind, params), type: "eventType" in params ? params.eventType : undefined },
        pageOf(query),
        query.sortOrder ?? "desc",
      );
      return list(items, total, pageOf(query));
    });
  const reading = (op: typeof ops.note | typeof ops.noteTyped) =>
    withApi(op, async ({ principal, params }) =>
      one(
        await getNotification(
          principal,
          { prefix: prefixOf(kind, params), type: "eventType" in params ? params.eventType : undefined },
          params.notificationId,
        ),
      ),
    );
  return [
    { shape: "", names: [], ops: { GET: listing(ops.notes) } },
    { shape: "t", names: ["eventType"], ops: { GET: listing(ops.notesByType) } },
    { shape: "n", names: ["notificationId"], ops: { GET: reading(ops.note) } },
    { shape: "tn", names: ["eventType", "notificationId"], ops: { GET: reading(ops.noteTyped) } },
  ];
}

export const subscriptionRoutes = (kind: PrefixKind) => dispatchByShape(subscriptionShapes(kind));
export const notificationRoutes = (kind: "vehicle" | "account") => dispatchByShape(notificationShapes(kind));
