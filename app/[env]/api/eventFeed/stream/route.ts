import { preflight } from "@/server/http/cors";
import { otherMethods } from "@/server/http/method-not-allowed";
import { withApiStream } from "@/server/http/with-api-stream";
import { openEventStream } from "@/server/notifications/feed-stream";
import { eventStreamOperation as op } from "@/server/subscriptions/operations";

// GET /eventFeed/stream — the app's events as Server-Sent Events, from Last-Event-ID or a cursor
export const GET = withApiStream(op, async ({ principal, query, lastEventId }) =>
  openEventStream(principal, {
    after: lastEventId ?? query.after,
    since: query.since,
    eventType: query.eventType,
    vehicleId: query.vehicleId,
  }),
);

export const OPTIONS = preflight;

// Any other method: 405 with Allow naming the methods above
export const { PUT, PATCH, DELETE, POST } = otherMethods(op);
