import { listenForNotifies } from "@/server/platform/fleet/notify-listener";

// The vehicles' trigger (migration 0027, wayline_notify_positions) sends one NOTIFY
// wayline_positions per statement that moved a vehicle or changed whether it runs, its payload the
// accounts concerned ("12,40") or "*" when there were too many to name.

const CHANNEL = "wayline_positions";

/** Calls `wake` whenever a vehicle of `accountId` moved or started or stopped running, in any process. */
export function onPositionsChanged(accountId: number, wake: () => void): Promise<() => void> {
  const mine = String(accountId);
  return listenForNotifies(CHANNEL, {
    onNotify: (payload) => {
      if (payload === "*" || payload.split(",").includes(mine)) wake();
    },
    // Moves may have been missed while the listening connection was away: read once.
    onListen: wake,
  });
}
