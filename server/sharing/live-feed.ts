import { ApiError } from "@/common/http/errors";
import { childLogger } from "@/server/platform/log";
import { coalesced } from "@/server/platform/wakeups/coalesced";
import type { LiveFeed, LiveOutput } from "@/server/platform/wakeups/live-feed";
import { onPositionsChanged } from "@/server/platform/wakeups/positions";
import { onShareEnd } from "./ends";
import { resolveShare, type ResolvedShare, type SharedEnded } from "./service";

const log = childLogger({ component: "share-stream" });

const ENDED: SharedEnded = { state: "ended" };

// The shared page's stream (GET /share/{token}/stream): an `event: share` with what the page shows,
// first at once and then whenever the account's vehicles move, start or stop, or pause (the same
// NOTIFY the driver's live map wakes on), and `{"state": "ended"}` followed by the end of the
// stream when the driver ends the link (NOTIFY from ends.ts) or its time is up (a timer at endsAt).
// The route resolves the link first (an ended one is its 410, answered before the stream starts).
export async function openShareStream(first: ResolvedShare, out: LiveOutput): Promise<LiveFeed> {
  const { token } = first;
  let stopped = false;
  const finish = () => {
    if (stopped) return;
    out.send("share", ENDED);
    out.close();
  };
  const read = coalesced(async () => {
    if (stopped) return;
    try {
      const { view } = await resolveShare(token);
      if (!stopped) out.send("share", view);
    } catch (error) {
      if (error instanceof ApiError && (error.code === "GONE" || error.code === "NOT_FOUND")) return finish();
      log.warn({ err: error }, "reading a shared location for a stream failed");
      out.close();
    }
  });
  const offPositions = await onPositionsChanged(first.accountId, () => void read());
  let offEnd: () => void = () => {};
  try {
    offEnd = await onShareEnd(first.linkId, finish);
  } catch (error) {
    offPositions();
    throw error;
  }
  // A timer can wait at most 2^31-1 ms; links last 24 hours at most, the stream 5 minutes.
  const expiry = setTimeout(() => void read(), Math.max(0, first.endsAt.getTime() - Date.now()) + 50);
  await read();
  return {
    heartbeat: () => void read(),
    stop: () => {
      stopped = true;
      clearTimeout(expiry);
      offPositions();
      offEnd();
    },
  };
}
