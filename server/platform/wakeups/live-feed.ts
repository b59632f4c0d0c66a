// What an open live stream gives its feed, and what the feed gives back: the shapes between the
// edge's Server-Sent Events answer (server/http/live-events.ts) and a surface's feed (the driver's
// positions, the console's run), so the feed never sees a Response.

export type LiveOutput = {
  /** One event: `event: <name>` and the JSON of `data`. */
  send(event: string, data: unknown): void;
  /** Ends the stream (the session ended, the feed failed or has nothing more to say). */
  close(): void;
};

export type LiveFeed = {
  /** Every 15 s: read again, in case a NOTIFY was lost while the listener reconnected. */
  heartbeat(): void;
  /** The stream ended: let go of the wake-ups. */
  stop(): void;
};
