import { sql } from "drizzle-orm";
import { db } from "@/db/client";
import { listenForNotifies } from "@/server/platform/fleet/notify-listener";

// A link the driver ends is announced to every process (NOTIFY wayline_share_ends with the link's
// id), so the pages open on it, wherever their stream is served, show that it ended at once; the
// streams' heartbeat re-reads the link besides, for a NOTIFY lost while the listener reconnected.

const CHANNEL = "wayline_share_ends";

export async function announceShareEnd(linkId: number): Promise<void> {
  await db().execute(sql`select pg_notify(${CHANNEL}, ${String(linkId)})`);
}

/** Calls `ended` when the link `linkId` is ended, in any process. */
export function onShareEnd(linkId: number, ended: () => void): Promise<() => void> {
  const mine = String(linkId);
  return listenForNotifies(CHANNEL, {
    onNotify: (payload) => {
      if (payload === mine) ended();
    },
  });
}
