import { ApiError } from "@/common/http/errors";
import { metrics } from "@/server/platform/metrics/registry";

// The Server-Sent Event streams open in this process, each holding a slot under the keys it is
// capped by (docs/operations.md#open-streams): an open stream costs a read on every wake-up of
// its app or account, so a token or a session may hold only so many at once, whatever its rate
// limit allowed it to open. Past a cap the next one is 429 RATE_LIMITED, before anything is read
// or listened to. The counts are this process's (kept on globalThis: every route module of the
// process shares them); with several processes each enforces its own.
//
// A slot also bounds what its stream holds for a client that does not read: data enqueued and not
// yet taken by the response (which waits while the socket's buffer is full). A write that finds
// more than MAX_WAITING_BYTES waiting ends the stream and drops what waited; the connection itself
// is ended by the server entry point once its writes have not drained for STREAM_STALL_SECONDS
// (server/http/stream-stalls.ts), which frees the slot.

export type StreamKind = "event-feed" | "live-positions" | "simulator-run" | "shared-location";

/** One cap a stream counts under: at most `max` open streams share `key`. */
export type StreamLimit = { key: string; max: number; /** names it in the 429 */ holder: string; label: string };

/** Data the stream wrote and the client has not taken: more than this at a write ends the stream. */
const MAX_WAITING_BYTES = 1024 * 1024;
/** What a refused stream is told to wait: a slot frees when one of the holder's streams ends. */
const RETRY_AFTER_SECONDS = 5;

/**
 * The queuing strategy of a slot's stream: sizes in bytes, and a high-water mark of one byte, so a
 * pull source is pulled only when the client has taken everything (as with the default strategy).
 */
export const slotQueue = () => new ByteLengthQueuingStrategy({ highWaterMark: 1 });

export type StreamSlot = {
  /** Enqueues `chunk` on the stream's controller; false when too much waited and the stream was ended. */
  enqueue(controller: ReadableStreamDefaultController<Uint8Array>, chunk: Uint8Array): boolean;
  /** Frees the slot (idempotent). */
  release(): void;
};

const stateKey = Symbol.for("wayline.stream-slots");
type WithState = typeof globalThis & { [stateKey]?: Map<string, number> };

const counts = () => ((globalThis as WithState)[stateKey] ??= new Map());

/** Takes a slot under every limit, or throws 429 RATE_LIMITED naming the first that is full. */
export function takeStreamSlot(kind: StreamKind, limits: StreamLimit[]): StreamSlot {
  const open = counts();
  const full = limits.find((l) => (open.get(l.key) ?? 0) >= l.max);
  if (full) {
    metrics().streamsRefused.inc({ stream: kind, limit: full.label });
    throw new ApiError(
      "RATE_LIMITED",
      `Too many open event streams for ${full.holder} (at most ${full.max} at once). ` +
        `Close one, or retry after ${RETRY_AFTER_SECONDS} seconds.`,
      [],
      { "Retry-After": String(RETRY_AFTER_SECONDS) },
    );
  }
  for (const { key } of limits) open.set(key, (open.get(key) ?? 0) + 1);
  let released = false;
  return {
    enqueue(controller, chunk) {
      // desiredSize is the high-water mark (1) less what waits; null once the stream errored.
      const waiting = 1 - (controller.desiredSize ?? 1);
      if (waiting > MAX_WAITING_BYTES) {
        metrics().streamsOverflowed.inc({ stream: kind });
        // Erroring drops the queue at once; the response is torn down behind it.
        controller.error(new Error("the client left too much of the stream unread"));
        return false;
      }
      controller.enqueue(chunk);
      return true;
    },
    release() {
      if (released) return;
      released = true;
      for (const { key } of limits) {
        const left = (open.get(key) ?? 1) - 1;
        if (left > 0) open.set(key, left);
        else open.delete(key);
      }
    },
  };
}
