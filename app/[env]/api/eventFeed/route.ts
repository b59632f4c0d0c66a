import { preflight } from "@/server/http/cors";
import { cursorPage } from "@/server/http/results";
import { otherMethods } from "@/server/http/method-not-allowed";
import { withApi } from "@/server/http/with-api";
import { readEventFeed } from "@/server/notifications/feed";
import { eventFeedOperation as op } from "@/server/subscriptions/operations";

// GET /eventFeed/ — the app's events in commit order, from a cursor
export const GET = withApi(op, async ({ principal, query }) => {
  const { events, nextCursor } = await readEventFeed(principal, {
    after: query.after,
    since: query.since,
    limit: query.searchLimit,
    eventType: query.eventType,
    vehicleId: query.vehicleId,
  });
  return cursorPage(events, { nextCursor });
});

export const OPTIONS = preflight;

// Any other method: 405 with Allow naming the methods above
export const { PUT, PATCH, DELETE, POST } = otherMethods(op);
