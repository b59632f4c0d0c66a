import type { DriverSession } from "@/server/surfaces/driver/session";
import { childLogger } from "@/server/platform/log";
import type { LiveFeed, LiveOutput } from "@/server/platform/wakeups/live-feed";
import { coalesced } from "@/server/platform/wakeups/coalesced";
import { onPositionsChanged } from "@/server/platform/wakeups/positions";
import { onSessionEnd } from "@/server/platform/wakeups/session-ends";
import { listDriverVehicles } from "./vehicles";

const log = childLogger({ component: "position-stream" });

// The driver's live map (GET /me/positions/stream): an `event: positions` with the driver's
// vehicles, the same body /me/positions answers, first at once and then each time a vehicle of
// the account moves or starts or stops running (NOTIFY from the vehicles' trigger, from whichever
// process served the write). The session's own account only: another driver's vehicles never
// reach it. Ends when the session signs out (in any process).
export async function openPositionStream(session: DriverSession, out: LiveOutput): Promise<LiveFeed> {
  let stopped = false;
  const read = coalesced(async () => {
    if (stopped) return;
    try {
      const vehicles = await listDriverVehicles(session);
      if (!stopped) out.send("positions", { vehicles, at: new Date().toISOString() });
    } catch (error) {
      // The database went away: end the stream; the page polls, then tries the stream again.
      log.warn({ err: error }, "reading positions for a stream failed");
      out.close();
    }
  });
  const offPositions = await onPositionsChanged(session.accountId, () => void read());
  let offSession: () => void = () => {};
  try {
    offSession = await onSessionEnd(session.sid, () => out.close());
  } catch (error) {
    offPositions();
    throw error;
  }
  // After the LISTENs: whatever committed before them is in this first read, after them in a wake-up.
  await read();
  return {
    heartbeat: () => void read(),
    stop: () => {
      stopped = true;
      offPositions();
      offSession();
    },
  };
}
