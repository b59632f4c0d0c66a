import { createParser } from "eventsource-parser";
import { unwrap, WaylineError } from "../errors";
import type { WaylineClient } from "../client";

// Where `wayline listen` gets the app's events from: the event feed's Server-Sent Events stream
// (GET /eventFeed/stream), which hands out each event with its cursor, in commit order, once, as it
// commits; or the feed's pages (GET /eventFeed/) polled with the cursor (`--poll`, for a network that
// does not keep a response open). Both resume from the last cursor the command saw.

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

/**
 * The stream, reopened from the last event's cursor whenever it ends (the service restarting or
 * draining, the token expiring: the next connection takes a renewed one). Answers that are not a
 * stream (a bad or expired cursor, wrong credentials) are thrown as WaylineErrors; a connection that
 * fails is tried again, 0.5 s doubling to 30 s.
 */
export function streamingFeed(api: WaylineClient): EventSource {
  return {
    async *events(start, signal) {
      let after = start.after;
      let since = after ? undefined : start.since;
      let failures = 0;
      while (!signal.aborted) {
        try {
          const result = await api.GET("/eventFeed/stream", {
            params: { query: { ...(after ? { after } : {}), ...(since ? { since } : {}) } },
            headers: { accept: "text/event-stream" },
            parseAs: "stream",
            signal,
          });
          const body = unwrap(result) as ReadableStream<Uint8Array>;
          const arrived: FeedEvent[] = [];
          const parser = createParser({
            onEvent: (message) => void arrived.push(JSON.parse(message.data) as FeedEvent),
          });
          const reader = body.getReader();
          const decoder = new TextDecoder();
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            parser.feed(decoder.decode(value, { stream: true }));
            for (const event of arrived.splice(0)) {
              after = event.cursor;
              since = undefined;
              failures = 0;
              yield event;
            }
          }
        } catch (error) {
          if (signal.aborted) return;
          // The service said no (400, 401, 403, 410): trying again would not change its mind.
          if (error instanceof WaylineError && error.httpStatus < 500 && error.httpStatus !== 429) throw error;
        }
        failures += 1;
        await sleep(Math.min(500 * 2 ** (failures - 1), 30_000), signal);
      }
    },
  };
}

export const isCursorExpired = (e: unknown) => e instanceof WaylineError && e.errorCode === "CURSOR_EXPIRED";
