import { rawSql } from "@/db/client";
import { childLogger } from "@/server/platform/log";

// PostgreSQL LISTEN for the whole process: one LISTEN per channel on postgres.js's one listening
// connection, fanned out to every subscriber in this process (the open streams). A thousand open
// map streams cost one LISTEN, not a thousand connections. NOTIFYs come from any process of the
// fleet (a trigger in the writing transaction), so a write served by one process wakes the streams
// held by another; on the embedded database the wire server carries them (db/embedded/
// notify-fanout.ts). postgres.js LISTENs again after a lost connection; a NOTIFY sent while it was
// away is lost, which is why every subscriber also reads on its own now and then (the streams'
// heartbeat).
//
// Generic on purpose: a channel name and a callback with the payload. The map's positions
// (positions.ts) and the sign-outs (session-ends.ts) use it; the event feed's stream can too.

const log = childLogger({ component: "wakeups" });

type Channel = { handlers: Set<(payload: string) => void>; ready: Promise<unknown> };

// Kept on globalThis: Next.js bundles route modules separately, and they must share one listener.
const key = Symbol.for("wayline.wakeups");
const channels: Map<string, Channel> = ((globalThis as Record<symbol, unknown>)[key] ??= new Map()) as Map<
  string,
  Channel
>;

/**
 * Calls `handler` with each NOTIFY payload on `channel` until the returned function is called.
 * Resolves once the LISTEN is in place, so nothing committed after it is missed.
 */
export async function onNotify(channel: string, handler: (payload: string) => void): Promise<() => void> {
  let entry = channels.get(channel);
  if (!entry) {
    const handlers = new Set<(payload: string) => void>();
    const ready = rawSql()
      .listen(channel, (payload) => {
        for (const h of handlers) {
          try {
            h(payload);
          } catch (error) {
            log.error({ err: error, channel }, "a wake-up handler failed");
          }
        }
      })
      .catch((error: unknown) => {
        // Let the next subscriber try again rather than keep a listener that never started.
        channels.delete(channel);
        throw error;
      });
    entry = { handlers, ready };
    channels.set(channel, entry);
  }
  entry.handlers.add(handler);
  try {
    await entry.ready;
  } catch (error) {
    entry.handlers.delete(handler);
    throw error;
  }
  const own = entry;
  // The LISTEN stays when the last subscriber leaves: the next stream needs it again soon, and an
  // idle LISTEN costs the database nothing.
  return () => void own.handlers.delete(handler);
}
