import type postgres from "postgres";
import { rawSql } from "@/db/client";
import { childLogger } from "@/server/platform/log";

// Wake-ups across the fleet: PostgreSQL NOTIFY, heard by one LISTEN per channel per process and
// handed to every subscriber in the process (docs/operations.md#wake-ups-across-the-fleet). A
// writer (a trigger, or pg_notify in its transaction) sends NOTIFY when its transaction commits,
// to every process that listens, whichever process wrote; the embedded database carries it through
// its wire server (db/embedded/notify-fanout.ts). The event stream listens on wayline_events; any
// other feature that wants to be woken by another process's commit subscribes to its own channel here:
// the driver's map by positions and the sign-outs (server/platform/wakeups/).
//
// A notification is a hint, never the data: subscribers read what changed from the database.
// NOTIFYs sent while the listening connection was down are lost, so after it reconnects every
// subscriber's onListen runs, and it reads once as if woken. postgres.js re-listens after a lost
// connection by itself; a re-listen that fails while the database is still away is not retried by
// it, which is why subscribers also read now and then on their own (the stream: every 10 s).
//
// Kept on globalThis: the server entry point and Next.js's separately bundled route modules are
// different module instances in one process, and must share one LISTEN per channel.

export type NotifyHandlers = {
  /** A NOTIFY on the channel, with its payload. Called synchronously: keep it cheap (batch). */
  onNotify(payload: string): void;
  /** The LISTEN was (re-)established after a lost connection: NOTIFYs may have been missed. */
  onListen?(): void;
};

type Channel = {
  sql: postgres.Sql;
  handlers: Set<NotifyHandlers>;
  ready: Promise<void>;
};

const log = childLogger({ component: "notify-listener" });
const key = Symbol.for("wayline.notify-listener");
type WithChannels = typeof globalThis & { [key]?: Map<string, Channel> };

function channels(): Map<string, Channel> {
  const g = globalThis as WithChannels;
  return (g[key] ??= new Map());
}

/**
 * Subscribes to NOTIFYs on `channel`; resolves once the process LISTENs (so a commit after it
 * resolves wakes the subscriber), with the function that unsubscribes. The LISTEN itself stays
 * for the life of the process (one idle connection): streams come and go all day.
 */
export async function listenForNotifies(channel: string, handlers: NotifyHandlers): Promise<() => void> {
  const sql = rawSql();
  let entry = channels().get(channel);
  // A new pool (closeDb, then db() again: scripts and tests) listens anew.
  if (!entry || entry.sql !== sql) {
    const created: Channel = { sql, handlers: new Set(), ready: Promise.resolve() };
    let listened = false;
    created.ready = sql
      .listen(
        channel,
        (payload) => {
          for (const h of created.handlers) {
            // One subscriber's failure must not keep the others from hearing it.
            try {
              h.onNotify(payload);
            } catch (error) {
              log.error({ err: error, channel }, "a NOTIFY subscriber failed");
            }
          }
        },
        () => {
          // The first LISTEN is the subscribe itself; a later one follows a lost connection.
          if (listened) {
            log.info({ channel }, "LISTEN re-established: waking every subscriber");
            for (const h of created.handlers) h.onListen?.();
          }
          listened = true;
        },
      )
      .then(
        () => {},
        (error: unknown) => {
          // Not listening: the next subscriber tries again.
          if (channels().get(channel) === created) channels().delete(channel);
          throw error;
        },
      );
    channels().set(channel, created);
    entry = created;
  }
  entry.handlers.add(handlers);
  const subscribed = entry;
  try {
    await subscribed.ready;
  } catch (error) {
    subscribed.handlers.delete(handlers);
    throw error;
  }
  return () => void subscribed.handlers.delete(handlers);
}
