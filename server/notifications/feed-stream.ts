import type { Principal } from "@/server/api-auth/principal";
import { env } from "@/server/platform/env";
import { feedStart, readFeedPage, type FeedFilters, type FeedStart } from "./feed";
import { feedWaiter } from "./feed-wakeups";

// GET /eventFeed/stream (docs/event-feed.md#the-stream): the feed, read on wake-up. The stream is
// not a second way to deliver events: it reads the same pages GET /eventFeed/ answers, from its
// last position, whenever a commit of its app's events is heard (feed-wakeups.ts), so it hands out
// exactly what a polling consumer would, in the same order, with the same cursors, and never skips
// or repeats an event whatever commits concurrently (docs/decisions/0117-stream-re-reads-the-feed.md).
//
// Opening it checks the cursor (400, 410: thrown before anything is streamed) and starts
// listening before the first read, so nothing committed after that read goes unheard. Then:
// read pages until one is not full; wait for a wake-up; repeat. When a commit was heard whose
// transaction the feed may not show yet (an older transaction still open), read again after a
// short pause, doubling up to a second, until the horizon has passed it. Every
// STREAM_SAFETY_READ_SECONDS (default 10) the stream reads anyway, in case a NOTIFY was lost.

export type StreamEvent = { id: string; event: string; data: unknown };

/** Events read per page (the feed's largest page). */
const PAGE = 1000;
const RETRY_FIRST_MS = 10;
const RETRY_MAX_MS = 1000;

export type EventStreamQuery = FeedFilters & { after?: string; since?: Date };

/**
 * Checks where the stream starts (throwing the feed's 400 or 410) and listens for commits; answers
 * the function that follows the feed, yielding each read's events as one batch until `signal` aborts.
 */
export async function openEventStream(
  principal: Principal,
  query: EventStreamQuery,
): Promise<(signal: AbortSignal) => AsyncGenerator<StreamEvent[]>> {
  const first = feedStart(principal, query);
  const filters: FeedFilters = { eventType: query.eventType, vehicleId: query.vehicleId };
  const waiter = await feedWaiter(principal.appId, principal.kind === "user" ? principal.accountId : null);

  return async function* follow(signal: AbortSignal) {
    let start: FeedStart = first;
    let retryMs = RETRY_FIRST_MS;
    try {
      while (!signal.aborted) {
        const page = await readFeedPage(principal, start, { ...filters, limit: PAGE });
        waiter.passed(page.horizon);
        start = { from: page.next, madeSince: null };
        if (page.events.length > 0) yield page.events.map((e) => ({ id: e.cursor, event: String(e._type), data: e }));
        if (page.full) continue;
        const held = waiter.pendingTx > 0n;
        await waiter.wait(held ? retryMs : env().STREAM_SAFETY_READ_SECONDS * 1000, signal);
        retryMs = held ? Math.min(retryMs * 2, RETRY_MAX_MS) : RETRY_FIRST_MS;
      }
    } finally {
      waiter.close();
    }
  };
}
