import { unwrap, WaylineError } from "../errors.js";
import type { WaylineClient } from "../client.js";
import { sseMessages, StreamIdle } from "./sse-messages.js";

// Where `wayline listen` gets the app's events from: the event feed's Server-Sent Events stream
// (GET /eventFeed/stream), which hands out each event with its cursor, in commit order, once, as it
// commits; or the feed's pages (GET /eventFeed/) polled with the cursor (`--poll`, for a network that
// does not keep an answer open). Both resume from the last cursor the command took.

export type FeedEvent = { eventId: string; cursor: string; _type: string; vehicleId: number | null } & Record<
  string,
  unknown
>;

export type EventSource = {
  /** How it reads, for the command's first line: "the event stream", "the feed's pages every 1 s". */
  readonly how: string;
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
    how: `the feed's pages every ${intervalMs / 1000} s`,
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
 * A stream that heard no byte for this long is taken for dead: the service's heartbeats come every 15 s, and
 * docs/event-feed.md#the-stream tells clients to reconnect after 30 s of silence.
 */
const IDLE_MS = 30_000;
const BACKOFF_FIRST_MS = 500;
const BACKOFF_MAX_MS = 30_000;
/** A stream that ends sooner than this after opening, with nothing in it, counts as a failure. */
const SHORT_LIVED_MS = 5_000;

/**
 * The stream, reopened from the last event's cursor whenever it ends: the service restarting or
 * draining, the token expiring (the next connection takes a renewed one), the connection breaking
 * or going silent. Answers that are not a stream and that trying again would not change (400 a bad
 * cursor, 410 an expired one, 401 and 403 credentials refused) are thrown as WaylineErrors; the
 * others (5xx, a 429 the client stopped waiting out, no connection) are tried again with backoff,
 * 0.5 s doubling to 30 s, one line each. A stream that opened resets the backoff: one that ends
 * after a while is reopened at once.
 */
export function streamingFeed(
  api: WaylineClient,
  { notice, idleMs = IDLE_MS }: { notice: (line: string) => void; idleMs?: number },
): EventSource {
  return {
    how: "the event stream",
    async *events(start, signal) {
      let after = start.after;
      let since = after ? undefined : start.since;
      let failures = 0;
      while (!signal.aborted) {
        const connection = new AbortController();
        const stop = () => connection.abort();
        signal.addEventListener("abort", stop, { once: true });
        let openedAt: number | null = null;
        let delivered = false;
        let broke: string | null = null;
        // Opening is bounded too: a connection that went silent answers nothing, not even headers.
        const opening = setTimeout(() => connection.abort(new StreamIdle(idleMs)), idleMs);
        try {
          const result = await api
            .GET("/eventFeed/stream", {
              params: { query: { ...(after ? { after } : {}), ...(since ? { since } : {}) } },
              headers: { accept: "text/event-stream" },
              parseAs: "stream",
              signal: connection.signal,
            })
            .finally(() => clearTimeout(opening));
          const body = unwrap(result) as ReadableStream<Uint8Array>;
          openedAt = Date.now();
          for await (const message of sseMessages(body, { idleMs })) {
            const event = JSON.parse(message.data) as FeedEvent;
            after = event.cursor;
            since = undefined;
            delivered = true;
            failures = 0;
            yield event;
          }
        } catch (error) {
          if (signal.aborted) return;
          if (error instanceof WaylineError && !retriedStatus(error.httpStatus)) throw error;
          broke = describe(error);
        } finally {
          signal.removeEventListener("abort", stop);
          connection.abort();
        }
        if (signal.aborted) return;
        if (openedAt !== null && (delivered || Date.now() - openedAt >= SHORT_LIVED_MS)) failures = 0;
        else failures += 1;
        const wait = failures === 0 ? 0 : Math.min(BACKOFF_FIRST_MS * 2 ** (failures - 1), BACKOFF_MAX_MS);
        const what = broke ? `broke (${broke})` : "ended";
        notice(`${clock()}  the event stream ${what}; reopening ${wait ? `in ${wait / 1000} s` : "now"}`);
        await sleep(wait, signal);
      }
    },
  };
}

/** An answer worth asking again: the service's trouble (5xx) or a rate limit, not a refusal of the request. */
const retriedStatus = (status: number) => status >= 500 || status === 429 || status === 408;

function describe(error: unknown): string {
  if (error instanceof StreamIdle) return error.message;
  if (error instanceof WaylineError) return error.message;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message ?? String(error);
}

const clock = () => new Date().toISOString().slice(11, 19);

export const isCursorExpired = (e: unknown) => e instanceof WaylineError && e.errorCode === "CURSOR_EXPIRED";
