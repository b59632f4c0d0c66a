import { knotsFromKmh } from "./protocols/data-points";

// A device's records as ignition statuses (docs/devices.md#trips), pure: the state it starts from is
// the stored one (the vehicle's running state and newest data set, the device's last ignition and
// motion: server/devices/ingest/targets.ts reads them under the vehicle's row lock), so the statuses
// come out the same after a restart and whichever gateway process gets the device.
//
// - A device that reports its ignition (Teltonika IO 239, the GT06 ACC bit, OsmAnd `ignition`): the
//   first record with it on after off is ON, the next ones RUNNING, a record with it off OFF. Once it
//   has reported one, a record without (a GT06 location whose course word carries no ACC) keeps the
//   last one reported.
// - A device that never has: trips from motion. A record moving (3 km/h or more) is ON, or RUNNING
//   while the vehicle runs; one without motion keeps the trip RUNNING until 5 minutes have passed since
//   the last motion, and the first after that is the OFF that closes it.
// - A record older than the vehicle's newest data set is late: ingest stores it at its own time in
//   whichever trip holds it and it changes no state, so it is RUNNING or OFF by its own ignition or
//   motion, and moves nothing here.

export type IgnitionStatus = "ON" | "RUNNING" | "OFF";

export type TripState = {
  /** The vehicle's: whether its newest data set was ON or RUNNING. */
  running: boolean;
  lastDataAt: Date | null;
  lastRunningAt: Date | null;
  /** The device's: the ignition it last reported, null when it never reported one. */
  ignition: boolean | null;
  /** The device's newest record with motion. */
  motionAt: Date | null;
};

type Reading = { fixTime: Date; ignition?: boolean; speedKnots?: number };

/** How long a trip from motion stays open without motion. */
export const PARKED_MS = 5 * 60_000;
const MOVING_KNOTS = knotsFromKmh(3);

/** The status of each record (in time order) and the state after them. */
export function ignitionStatuses(
  initial: TripState,
  records: readonly Reading[],
): { statuses: IgnitionStatus[]; state: TripState } {
  const state = { ...initial };
  const statuses = records.map((record): IgnitionStatus => {
    const at = record.fixTime.getTime();
    const moving = (record.speedKnots ?? 0) >= MOVING_KNOTS;
    if (state.lastDataAt && at < state.lastDataAt.getTime()) {
      const on = record.ignition ?? state.ignition ?? moving;
      return on ? "RUNNING" : "OFF";
    }
    let on: boolean;
    if (record.ignition !== undefined) {
      on = record.ignition;
      state.ignition = record.ignition;
    } else if (state.ignition !== null) on = state.ignition;
    else if (moving) on = true;
    else {
      const lastMotion = state.motionAt ?? state.lastRunningAt;
      on = state.running && lastMotion !== null && at - lastMotion.getTime() < PARKED_MS;
    }
    if (moving) state.motionAt = record.fixTime;
    const status = !on ? "OFF" : state.running ? "RUNNING" : "ON";
    state.running = on;
    state.lastDataAt = record.fixTime;
    if (on) state.lastRunningAt = record.fixTime;
    return status;
  });
  return { statuses, state };
}
