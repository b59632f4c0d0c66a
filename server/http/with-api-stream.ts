import type { Operation } from "@/common/http/operation";
import { validationError } from "@/common/http/errors";
import { env } from "@/server/platform/env";
import { corsHeaders } from "./cors";
import { withRateLimitHeaders } from "./rate-limit";
import { watchStreamToken } from "./stream-token-watch";
import { admitOperation, errorResponse, type HandlerInput, type RouteContext, type RouteHandler } from "./with-api";
import type { Verdict } from "@/server/platform/rate-limits/verdict";
import type { Principal } from "@/server/api-auth/principal";
import { takeStreamSlot, type StreamLimit, type StreamSlot } from "@/server/platform/streams/stream-slots";
import { childLogger } from "@/server/platform/log";

// The API's wrapper for a stream of Server-Sent Events (GET /eventFeed/stream, docs/event-feed.md#the-stream).
// Everything before the first byte is withApi's: environment, token and rate limits (opening
// counts as one request), parsing; then the Accept header. Any refusal up to there is the API's
// JSON error. The handler answers a function that yields batches of events (the domain reads,
// this layer writes); the wrapper writes them as SSE messages, with a comment line every
// STREAM_HEARTBEAT_SECONDS (default 15) so proxies and clients see the connection alive, and ends
// the stream when the client goes, when its token stops working or the process drains
// (stream-token-watch.ts), or when the handler's events end.
//
// Backpressure: the next batch is read only when the client has taken the last (ReadableStream's
// pull), so a slow client holds one batch in memory, not the feed (and, if it never reads, the
// heartbeats; the connection ends once its writes have not drained for STREAM_STALL_SECONDS,
// stream-stalls.ts). Open streams are capped per token and per app (stream-slots.ts): the next is
// 429 before the handler listens or reads.

type SseEvent = { id: string; event: string; data: unknown };
export type EventBatches = (signal: AbortSignal) => AsyncGenerator<SseEvent[]>;

export function withApiStream<O extends Operation>(
  op: O,
  handler: (input: HandlerInput<O> & { lastEventId: string | null }) => Promise<EventBatches>,
): RouteHandler {
  return async (request: Request, context: RouteContext): Promise<Response> => {
    let quota: Verdict[] = [];
    try {
      const admitted = await admitOperation(op, request, context, (verdicts) => (quota = verdicts));
      refuseUnlessEventStream(request.headers.get("accept"));
      const slot = takeStreamSlot("event-feed", feedStreamLimits(admitted.principal));
      let source: EventBatches;
      try {
        source = await handler({ ...admitted, lastEventId: request.headers.get("last-event-id") || null });
      } catch (error) {
        slot.release();
        throw error;
      }
      const body = sseBody(source, {
        signal: request.signal,
        heartbeatMs: env().STREAM_HEARTBEAT_SECONDS * 1000,
        // Admitted, so the header is there and works.
        watch: (end) => watchStreamToken(request.headers.get("authorization")!, admitted.environment, end),
        slot,
      });
      return withRateLimitHeaders(
        new Response(body, {
          status: 200,
          headers: {
            "Content-Type": "text/event-stream; charset=utf-8",
            // no-transform: no compression layer may hold messages back to fill a block.
            "Cache-Control": "no-store, no-transform",
            "X-Accel-Buffering": "no",
            ...corsHeaders,
          },
        }),
        quota,
      );
    } catch (error) {
      return withRateLimitHeaders(errorResponse(error), quota);
    }
  };
}

// A token's streams count against it, and against its app in the environment: all of the app's
// for a client-credentials token, whose streams read every event of the app; for a user token the
// app's streams of that account, whose streams read only that account's (an app's mobile clients,
// one per driver, are not one app-wide crowd).
function feedStreamLimits(p: Principal): StreamLimit[] {
  const { STREAM_MAX_PER_TOKEN, STREAM_MAX_PER_APP } = env();
  return [
    {
      key: `token:${p.environment}:${p.via === "token" ? p.tokenId : p.via}`,
      max: STREAM_MAX_PER_TOKEN,
      holder: "this access token",
      label: "token",
    },
    p.kind === "client"
      ? { key: `app:${p.environment}:${p.appId}`, max: STREAM_MAX_PER_APP, holder: "this app", label: "app" }
      : {
          key: `app:${p.environment}:${p.appId}:account:${p.accountId}`,
          max: STREAM_MAX_PER_APP,
          holder: "this app and account",
          label: "app",
        },
  ];
}

// Accept must name text/event-stream (EventSource always sends it): a client that asks for JSON
// only, or names no type, gets a JSON answer it can read instead of a stream that never ends.
function refuseUnlessEventStream(accept: string | null): void {
  const named = (accept ?? "").split(",").some((part) => {
    const [type, ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    return type === "text/event-stream" && !params.some((p) => /^q=0(\.0*)?$/.test(p.replace(/\s/g, "")));
  });
  if (!named)
    throw validationError(
      [{ fieldName: "Accept", errorCode: "INVALID", errorDisplay: "Send Accept: text/event-stream." }],
      "This endpoint answers Server-Sent Events only: send Accept: text/event-stream.",
    );
}

const encoder = new TextEncoder();
const log = childLogger({ component: "event-stream" });

/** One SSE message; the data is one line of JSON (JSON.stringify never writes a line break). */
function sseMessage(e: SseEvent): string {
  return `id: ${e.id}\nevent: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
}

function sseBody(
  source: EventBatches,
  opts: { signal: AbortSignal; heartbeatMs: number; watch: (end: () => void) => () => void; slot: StreamSlot },
): ReadableStream<Uint8Array> {
  const abort = new AbortController();
  const events = source(abort.signal);
  let heartbeat: NodeJS.Timeout | null = null;
  let unwatch: (() => void) | null = null;
  let closed = false;
  let controller: ReadableStreamDefaultController<Uint8Array>;

  const stop = () => {
    if (closed) return;
    closed = true;
    opts.slot.release();
    abort.abort();
    if (heartbeat) clearInterval(heartbeat);
    unwatch?.();
    opts.signal.removeEventListener("abort", end);
    // Ends the reading loop; a read in progress finishes first.
    void events.return(undefined).catch(() => {});
  };
  // Closing from our side (token, drain): the client sees the response end.
  function end() {
    if (closed) return;
    stop();
    try {
      controller.close();
    } catch {
      // Already closed or errored by the consumer.
    }
  }
  const send = (text: string) => {
    if (closed) return;
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      // The consumer is gone without telling (a cancelled body): stop reading for it.
      stop();
    }
  };
  return new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      // The first bytes go out at once, so the client knows the stream is open.
      c.enqueue(encoder.encode(": stream open\n\n"));
      heartbeat = setInterval(() => send(": heartbeat\n\n"), opts.heartbeatMs);
      unwatch = opts.watch(end);
      if (opts.signal.aborted) end();
      else opts.signal.addEventListener("abort", end);
    },
    async pull(c) {
      if (closed) return;
      try {
        const next = await events.next();
        if (closed) return;
        if (next.done) return end();
        c.enqueue(encoder.encode(next.value.map(sseMessage).join("")));
      } catch (error) {
        // Headers are gone: the stream can only end. The client resumes from its Last-Event-ID.
        log.error({ err: error }, "an event stream's read failed: ending the stream");
        stop();
        c.error(error);
      }
    },
    cancel: stop,
  });
}
