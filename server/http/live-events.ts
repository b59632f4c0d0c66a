import { env } from "@/server/platform/env";
import { slotQueue, takeStreamSlot, type StreamKind } from "@/server/platform/streams/stream-slots";
import type { LiveFeed, LiveOutput } from "@/server/platform/wakeups/live-feed";

// The live map's Server-Sent Events answer (the driver's /me/positions/stream, the console's run
// stream, a shared location's page): the headers that keep proxies from buffering, a comment every 15 s (the heartbeat, which
// also asks the feed to read again, in case a NOTIFY was lost while the listener reconnected), and
// an end after LIFETIME_MS, after which the browser's EventSource reconnects and the session is
// checked again. The feed (server/surfaces/…) gets `send` and `close` and answers what to do on a
// heartbeat and when the stream ends; it is opened before the answer starts, so a refusal while
// opening (404, 401) is answered by the route's wrapper in its own shape, not as a broken stream.
// A signed-in driver or partner holds at most STREAM_MAX_PER_USER of them at once in a process
// (the next is 429, before the feed listens or reads: docs/operations.md#open-streams), and a
// client that stops reading holds at most about 1 MiB of events before its stream ends
// (stream-slots.ts; its connection is cut by stream-stalls.ts).

/** Whose streams one counts among: a driver account's live maps, or a partner's watched runs. */
export type LiveHolder = { kind: StreamKind; key: string; holder: string; label: string };

export const liveHolders = {
  driver: (accountId: number): LiveHolder => ({
    kind: "live-positions",
    key: `driver:${accountId}`,
    holder: "this driver account",
    label: "user",
  }),
  partner: (partnerUserId: number): LiveHolder => ({
    kind: "simulator-run",
    key: `partner:${partnerUserId}`,
    holder: "this partner account",
    label: "user",
  }),
  // A shared location's page is open to anyone with the link: its streams are capped per link.
  share: (linkId: number): LiveHolder => ({
    kind: "shared-location",
    key: `share:${linkId}`,
    holder: "this shared link",
    label: "link",
  }),
};

const HEARTBEAT_MS = 15_000;
const LIFETIME_MS = 5 * 60_000;
/** What EventSource waits before reconnecting after the stream ends (the lifetime, a restart). */
const RETRY_MS = 1000;

export async function liveEventsResponse(
  request: Request,
  who: LiveHolder,
  open: (out: LiveOutput) => Promise<LiveFeed>,
): Promise<Response> {
  const slot = takeStreamSlot(who.kind, [
    { key: who.key, max: env().STREAM_MAX_PER_USER, holder: who.holder, label: who.label },
  ]);
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let closed = false;
  let feed: LiveFeed | undefined;
  const timers: ReturnType<typeof setTimeout>[] = [];
  const write = (text: string) => {
    if (closed) return;
    try {
      if (!slot.enqueue(controller, encoder.encode(text))) close();
    } catch {
      close();
    }
  };
  const close = () => {
    if (closed) return;
    closed = true;
    slot.release();
    for (const t of timers) clearTimeout(t);
    feed?.stop();
    request.signal.removeEventListener("abort", close);
    try {
      controller.close();
    } catch {
      // the client went away first
    }
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      cancel: close,
    },
    slotQueue(),
  );
  write(`retry: ${RETRY_MS}\n\n`);
  const out: LiveOutput = {
    send: (event, data) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`),
    close,
  };
  try {
    feed = await open(out);
  } catch (error) {
    close();
    throw error;
  }
  if (closed) feed.stop();
  request.signal.addEventListener("abort", close);
  if (request.signal.aborted) close();
  const beat = setInterval(() => {
    write(": heartbeat\n\n");
    feed?.heartbeat();
  }, HEARTBEAT_MS);
  timers.push(beat as unknown as ReturnType<typeof setTimeout>, setTimeout(close, LIFETIME_MS));
  return new Response(body, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store, no-transform",
      "X-Accel-Buffering": "no",
    },
  });
}
