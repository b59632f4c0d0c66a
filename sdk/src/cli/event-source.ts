import { unwrap, WaylineError } from "../errors";
import type { WaylineClient } from "../client";

// Where `wayline listen` gets the app's events from. Today: the event feed (GET /eventFeed/), polled about
// once a second with its cursor. The feed's Server-Sent Events stream (GET /eventFeed/stream) can take its
// place behind the same interface: it hands out each event with its cursor, in commit order, once.

export type FeedEvent = { eventId: string; cursor: string; _type: string; vehicleId: number | null } & Record<
  string,
  unknown
>;

export type EventSource = {
  /** Events after `after` (or from `since`), until `signal` aborts. */
  events(start: { after?: string; since?: string }, signal: AbortSignal): AsyncIterable<FeedEvent>;
};

const PAGE = 100;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done);
  });

export function pollingFeed(api: WaylineClient, { intervalMs }: { intervalMs: number }): EventSource {
  return {
    async *events(start, signal) {
      let after = start.after;
      let since = after ? undefined : start.since;
      while (!signal.aborted) {
        const page = unwrap(
          await api.GET("/eventFeed/", {
            params: { query: { searchLimit: PAGE, ...(after ? { after } : {}), ...(since ? { since } : {}) } },
            signal,
          }),
        );
        for (const event of page.events as FeedEvent[]) yield event;
        after = page.nextCursor;
        since = undefined;
        // A full page: more are waiting; read on at once.
        if (page.events.length < PAGE) await sleep(intervalMs, signal);
      }
    },
  };
}

export const isCursorExpired = (e: unknown) => e instanceof WaylineError && e.errorCode === "CURSOR_EXPIRED";
