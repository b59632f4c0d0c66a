import { z } from "zod";
import { bigIdParam } from "@/common/http/fields";
import { accessRules } from "@/server/access-log/rules";
import { operation, type Operation } from "@/common/http/operation";
import { pagingQuery } from "@/common/http/paging";
import { EVENT_TYPE_NAMES, eventTypeOf } from "@/common/subscriptions/event-types";
import { feedEventOut, notificationOut, subscriptionBody, subscriptionOut } from "./schemas";
import { dateTime, idParam, integerish, optional } from "@/common/http/fields";

// Subscription and notification operations (docs/subscriptions.md) under the three prefixes. Each
// prefix gets the same set; the router (router.ts) picks one from the path.

export type PrefixKind = "vehicle" | "account" | "system";

// An event-type segment in any letter case; anything else names nothing (404).
const eventType = z
  .string()
  .transform((s, ctx) => eventTypeOf(s) ?? (ctx.addIssue({ code: "custom", message: "Unknown event type." }), z.NEVER))
  .meta({ description: "Event type, any letter case", enum: EVENT_TYPE_NAMES });

const prefixParams = {
  vehicle: { vehicleId: z.string().min(1).max(64).describe("vehicleId or device serial") },
  account: { accountId: idParam },
  system: {},
} as const;

const prefixPath = { vehicle: "/vehicle/{vehicleId}", account: "/account/{accountId}", system: "/system" } as const;
const prefixTag = {
  vehicle: "Vehicle subscriptions",
  account: "Account subscriptions",
  system: "System subscriptions",
} as const;

function opsFor<K extends PrefixKind>(kind: K) {
  const base = prefixParams[kind];
  const p = prefixPath[kind];
  const tag = prefixTag[kind];
  const auth = kind === "system" ? ("client" as const) : ("any" as const);
  const withSub = z.object({ ...base, subscriptionId: idParam });
  const withType = z.object({ ...base, eventType });
  const withTypedSub = z.object({ ...base, eventType, subscriptionId: idParam });
  const one = { key: "subscription", schema: subscriptionOut };
  const many = { key: "subscriptions", schema: subscriptionOut, list: true };
  const note = { key: "notification", schema: notificationOut };
  const notes = { key: "notifications", schema: notificationOut, list: true };
  const subNotes = `${p}/eventSubscription/{subscriptionId}/eventNotification`;

  return {
    list: operation({
      method: "GET",
      path: `${p}/eventSubscription/`,
      tag,
      summary: "List the app's subscriptions, deleted ones included",
      auth,
      params: z.object(base),
      query: pagingQuery,
      response: many,
    }),
    listByType: operation({
      method: "GET",
      path: `${p}/eventSubscription/{eventType}/`,
      tag,
      summary: "List the app's subscriptions of one type",
      auth,
      params: withType,
      query: pagingQuery,
      response: many,
    }),
    get: operation({
      method: "GET",
      path: `${p}/eventSubscription/{subscriptionId}`,
      tag,
      summary: "Read a subscription",
      auth,
      params: withSub,
      response: one,
    }),
    getTyped: operation({
      method: "GET",
      path: `${p}/eventSubscription/{eventType}/{subscriptionId}`,
      tag,
      summary: "Read a subscription of this type",
      auth,
      params: withTypedSub,
      response: one,
    }),
    create: operation({
      method: "POST",
      path: `${p}/eventSubscription/{eventType}/`,
      tag,
      summary: "Subscribe to an event type",
      description:
        "Receivers: the legacy `postUrl`/`postHeaders` (one HTTP_POST delivery) and/or `deliveries` " +
        "(HTTP_POST with postUrl, postHeaders, oauth2; EMAIL with recipient, subscriberSubject, " +
        "subscriberContent). The type's criteria go beside them. `notificationPeriod` defaults to the type's " +
        "first allowed period. A GEOFENCE is a circle (`origin` and `radius` in miles) or a `polygon` of 3 to " +
        "100 corners that does not cross itself (see the polygon example); a point on its edge is inside.",
      auth,
      params: withType,
      body: subscriptionBody,
      response: one,
    }),
    update: operation({
      method: "POST",
      path: `${p}/eventSubscription/{subscriptionId}`,
      tag,
      summary: "Change the fields sent (an echoed read is accepted)",
      auth,
      params: withSub,
      body: subscriptionBody,
      response: one,
    }),
    updateTyped: operation({
      method: "POST",
      path: `${p}/eventSubscription/{eventType}/{subscriptionId}`,
      tag,
      summary: "Change the fields sent",
      auth,
      params: withTypedSub,
      body: subscriptionBody,
      response: one,
    }),
    remove: operation({
      method: "DELETE",
      path: `${p}/eventSubscription/{subscriptionId}`,
      tag,
      summary: "Delete (it stays listed with deletionTimestamp)",
      auth,
      params: withSub,
      response: "result",
    }),
    removeTyped: operation({
      method: "DELETE",
      path: `${p}/eventSubscription/{eventType}/{subscriptionId}`,
      tag,
      summary: "Delete a subscription of this type",
      auth,
      params: withTypedSub,
      response: "result",
    }),
    subNotes: operation({
      method: "GET",
      path: `${subNotes}/`,
      tag,
      summary: "List a subscription's notifications, newest first",
      auth,
      params: withSub,
      query: pagingQuery,
      access: accessRules.notification,
      response: notes,
    }),
    subNotesByType: operation({
      method: "GET",
      path: `${subNotes}/{eventType}/`,
      tag,
      summary: "List a subscription's notifications of one type",
      auth,
      params: z.object({ ...base, subscriptionId: idParam, eventType }),
      query: pagingQuery,
      access: accessRules.notification,
      response: notes,
    }),
    subNote: operation({
      method: "GET",
      path: `${subNotes}/{notificationId}`,
      tag,
      summary: "Read one of a subscription's notifications",
      auth,
      params: z.object({ ...base, subscriptionId: idParam, notificationId: bigIdParam }),
      access: accessRules.notification,
      response: note,
    }),
    subNoteTyped: operation({
      method: "GET",
      path: `${subNotes}/{eventType}/{notificationId}`,
      tag,
      summary: "Read one of a subscription's notifications of this type",
      auth,
      params: z.object({ ...base, subscriptionId: idParam, eventType, notificationId: bigIdParam }),
      access: accessRules.notification,
      response: note,
    }),
  };
}

function noteOpsFor(kind: "vehicle" | "account") {
  const base = prefixParams[kind];
  const p = `${prefixPath[kind]}/eventNotification`;
  const tag = prefixTag[kind];
  const note = { key: "notification", schema: notificationOut };
  const notes = { key: "notifications", schema: notificationOut, list: true };
  return {
    notes: operation({
      method: "GET",
      path: `${p}/`,
      tag,
      summary: "List the app's notifications, newest first",
      auth: "any",
      params: z.object(base),
      query: pagingQuery,
      access: accessRules.notification,
      response: notes,
    }),
    notesByType: operation({
      method: "GET",
      path: `${p}/{eventType}/`,
      tag,
      summary: "List the app's notifications of one type",
      auth: "any",
      params: z.object({ ...base, eventType }),
      query: pagingQuery,
      access: accessRules.notification,
      response: notes,
    }),
    note: operation({
      method: "GET",
      path: `${p}/{notificationId}`,
      tag,
      summary: "Read a notification",
      auth: "any",
      params: z.object({ ...base, notificationId: bigIdParam }),
      access: accessRules.notification,
      response: note,
    }),
    noteTyped: operation({
      method: "GET",
      path: `${p}/{eventType}/{notificationId}`,
      tag,
      summary: "Read a notification of this type",
      auth: "any",
      params: z.object({ ...base, eventType, notificationId: bigIdParam }),
      access: accessRules.notification,
      response: note,
    }),
  };
}

export const subscriptionOperations = {
  vehicle: opsFor("vehicle"),
  account: opsFor("account"),
  system: opsFor("system"),
};
export const notificationOperations = { vehicle: noteOpsFor("vehicle"), account: noteOpsFor("account") };

export const testNotificationOperation = operation({
  method: "GET",
  path: "/test/vehicle/{vehicleId}/eventSubscription/{subscriptionId}",
  tag: "Vehicle subscriptions",
  summary: "Send a test notification (null recorded values) through every delivery of the subscription",
  auth: "any",
  params: z.object({ vehicleId: z.string().min(1).max(64), subscriptionId: idParam }),
  response: { key: "notification", schema: notificationOut },
});

// GET /eventFeed/ (docs/event-feed.md). An unknown event type is a 400 here: a query value, not a path.
const feedEventType = z
  .string()
  .transform((s, ctx) => eventTypeOf(s) ?? (ctx.addIssue({ code: "custom", message: "Unknown event type." }), z.NEVER))
  .meta({ description: "Only events of this type, any letter case", enum: EVENT_TYPE_NAMES });

// A cursor longer than any the feed hands out is malformed like any other (contract: 400, field
// `after`, INVALID), not TOO_LONG: the client is to restart, not to shorten it.
const feedCursor = z
  .string()
  .refine((cursor) => cursor.length <= 200, "Not a cursor of this feed.")
  .meta({ maxLength: 200 });

export const eventFeedOperation = operation({
  method: "GET",
  path: "/eventFeed/",
  tag: "Event feed",
  summary: "The app's events in commit order, paged by cursor",
  description:
    "Pass each answer's `nextCursor` as `after` on the next call to see every event once, whatever " +
    "commits concurrently; per vehicle, events keep the order of the data sets that caused them. Without " +
    "`after`: from `since`, or from the oldest event kept. A cursor older than the feed keeps " +
    "(EVENT_FEED_RETENTION_DAYS, at least 7 days) answers 410 `CURSOR_EXPIRED`: restart with `since`. A " +
    "user token sees its own account's events only.",
  auth: "any",
  query: z.object({
    after: optional(feedCursor).describe("The nextCursor (or an event's cursor) of an earlier answer"),
    since: optional(dateTime).describe("Without after: start at the events made at or after this time"),
    searchLimit: integerish.pipe(z.number().int().min(1).max(1000)).default(100),
    eventType: optional(feedEventType),
    vehicleId: optional(idParam).describe("Only this vehicle's events"),
  }),
  access: accessRules.notification,
  response: {
    key: "events",
    schema: feedEventOut,
    list: true,
    members: { nextCursor: z.string().describe("Pass as after on the next call") },
  },
});

// GET /eventFeed/stream (docs/event-feed.md#the-stream): the same events as Server-Sent Events.
export const eventStreamOperation = operation({
  method: "GET",
  path: "/eventFeed/stream",
  tag: "Event feed",
  summary: "The app's events as they commit, as Server-Sent Events",
  description:
    "Send `Accept: text/event-stream` (any other Accept answers 400). Each event is one SSE message: " +
    "`id:` the event's cursor, `event:` its type, `data:` the event JSON the feed's pages answer. " +
    "Resumes after `Last-Event-ID` (what EventSource sends when it reconnects) or `after`; without " +
    "either, from `since` or the oldest event kept. A bad or expired cursor answers 400 or 410 in JSON " +
    "before the stream starts. A comment line (`: heartbeat`) comes at least every 15 s; the stream " +
    "closes within 5 s of its token being revoked or expiring. Opening a stream counts as one request " +
    "against the rate limits. A token holds at most 5 open streams and an app 20 in the environment (a " +
    "user token's: per account), by default; the next answers 429 with `Retry-After`. A client that " +
    "stops reading is cut off once the stream's writes have not drained for 30 s.",
  auth: "any",
  query: z.object({
    after: optional(feedCursor).describe("Start after this cursor (Last-Event-ID wins when both are sent)"),
    since: optional(dateTime).describe("Without a cursor: start at the events made at or after this time"),
    eventType: optional(feedEventType),
    vehicleId: optional(idParam).describe("Only this vehicle's events"),
  }),
  response: { key: "events", schema: feedEventOut, list: true, stream: "text/event-stream" },
});

export const eventOperations: Operation[] = [
  ...Object.values(subscriptionOperations).flatMap((ops) => Object.values(ops) as Operation[]),
  ...Object.values(notificationOperations).flatMap((ops) => Object.values(ops) as Operation[]),
  testNotificationOperation,
  eventFeedOperation,
  eventStreamOperation,
];
