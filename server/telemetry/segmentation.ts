import { MAX_MILES, addMiles, milesOfReading } from "@/common/telemetry/miles";
import { WAYPOINT_KEY, parseWaypoint, type Waypoint } from "@/common/telemetry/keys";
import type { DataSetInput } from "./schemas";

// Trip segmentation and vehicle state, as a pure function over one vehicle's state and a batch
// of new (deduplicated) data sets in timestamp order (docs/device-data.md):
// - ON opens a trip (closing an open one first, at its last data set), RUNNING extends the open
//   trip or opens one, OFF closes it with GEN_TRIP_MILEAGE as its mileage.
// - A data set older than the vehicle's newest is late: it changes neither trips nor state and
//   is attached to whichever trip's time span holds it (resolved by the caller in SQL).
// - mileage: a GEN_ODOMETER above it replaces it; a closing trip's GEN_TRIP_MILEAGE brings it to
//   at least the mileage when the trip opened plus the trip's mileage (mileageAfterTrip); it never
//   decreases. A device that reports its odometer along the trip has already raised the mileage
//   by the time the trip closes: the trip's miles are not counted twice. Readings are taken to the
//   thousandth of a mile and added exactly (common/telemetry/miles.ts).

type TimedWaypoint = Waypoint & { at: Date };

export type OpenTrip = {
  /** An existing trip's id, or a negative placeholder for a trip this batch creates. */
  ref: number;
  startTime: Date;
  lastDataAt: Date;
  endTime: Date | null;
  mileage: number | null;
  /** The vehicle's mileage when the trip opened; null for trips opened before it was recorded. */
  startMileage: number | null;
  start: TimedWaypoint | null;
  end: TimedWaypoint | null;
};

export type VehicleState = {
  mileage: number;
  running: boolean;
  lastRunningAt: Date | null;
  lastDataAt: Date | null;
  lastWaypoint: TimedWaypoint | null;
  vin: string | null;
};

export type Plan = {
  /** Per input set: the trip it belongs to (ref), null for none, "late" for the caller to resolve. */
  tripOf: (number | null | "late")[];
  /** Trips created by this batch (negative refs) and the existing open trip if it changed. */
  trips: OpenTrip[];
  state: VehicleState;
  /** The trip left open after the batch, if any. */
  open: OpenTrip | null;
};

/** The set's last GEN_ODOMETER or GEN_TRIP_MILEAGE in miles; null when absent or not a mileage. */
const milesOf = (set: DataSetInput, key: "GEN_ODOMETER" | "GEN_TRIP_MILEAGE"): number | null => {
  const point = set.datum.findLast((d) => d.key === key);
  return point ? milesOfReading(point.value) : null;
};

const waypointOf = (set: DataSetInput): TimedWaypoint | null => {
  const point = set.datum.findLast((d) => d.key === WAYPOINT_KEY);
  if (!point) return null;
  const parsed = parseWaypoint(point.value);
  return typeof parsed === "string" ? null : { ...parsed, at: point.timestamp ?? set.timestamp };
};

/**
 * The vehicle's mileage when a trip closes: the larger of the mileage now (raised by any odometer
 * readings during the trip, the closing one included) and the mileage when the trip opened plus
 * the trip's GEN_TRIP_MILEAGE. Without a recorded start, the mileage before the closing data set
 * stands in for it (the rule before odometer readings were taken into account). Exact: 0.1 + 0.2
 * is 0.3; the sum stops at MAX_MILES.
 */
export function mileageAfterTrip(input: { current: number; atStart: number; tripMileage: number | null }): number {
  const { current, atStart, tripMileage } = input;
  if (tripMileage === null || !(tripMileage > 0)) return current;
  return Math.max(current, Math.min(MAX_MILES, addMiles(atStart, tripMileage)));
}

export function planIngest(initial: { state: VehicleState; openTrip: OpenTrip | null }, sets: DataSetInput[]): Plan {
  const state: VehicleState = { ...initial.state };
  let open: OpenTrip | null = initial.openTrip ? { ...initial.openTrip } : null;
  const touched = new Map<number, OpenTrip>();
  let nextRef = -1;

  const startTrip = (at: Date, waypoint: TimedWaypoint | null): OpenTrip => {
    const trip: OpenTrip = {
      ref: nextRef--,
      startTime: at,
      lastDataAt: at,
      endTime: null,
      mileage: null,
      startMileage: state.mileage,
      start: waypoint,
      end: waypoint,
    };
    touched.set(trip.ref, trip);
    return trip;
  };
  const closeTrip = (trip: OpenTrip, at: Date, mileage: number | null) => {
    trip.endTime = at;
    trip.mileage = mileage;
    touched.set(trip.ref, trip);
  };

  const tripOf = sets.map((set): number | null | "late" => {
    const at = set.timestamp;
    if (state.lastDataAt && at.getTime() < state.lastDataAt.getTime()) return "late";

    const waypoint = waypointOf(set);
    // The odometer first: a trip this set opens starts from it, one it closes ends at least at it.
    const before = state.mileage;
    const odometer = milesOf(set, "GEN_ODOMETER");
    if (odometer !== null && odometer > state.mileage) state.mileage = odometer;
    let trip: OpenTrip | null = null;
    if (set.ignitionStatus === "ON") {
      if (open) closeTrip(open, open.lastDataAt, null);
      open = trip = startTrip(at, waypoint);
    } else if (set.ignitionStatus === "RUNNING") {
      open ??= startTrip(at, waypoint);
      trip = open;
    } else if (open) {
      trip = open;
      const tripMileage = milesOf(set, "GEN_TRIP_MILEAGE");
      closeTrip(open, at, tripMileage);
      state.mileage = mileageAfterTrip({ current: state.mileage, atStart: open.startMileage ?? before, tripMileage });
      open = null;
    }
    if (trip) {
      trip.lastDataAt = at;
      if (waypoint) {
        trip.start ??= waypoint;
        trip.end = waypoint;
      }
      touched.set(trip.ref, trip);
    }

    state.running = set.ignitionStatus !== "OFF";
    if (state.running) state.lastRunningAt = at;
    state.lastDataAt = at;
    if (waypoint && (!state.lastWaypoint || waypoint.at.getTime() >= state.lastWaypoint.at.getTime()))
      state.lastWaypoint = waypoint;
    if (set.vin) state.vin = set.vin;
    return trip ? trip.ref : null;
  });

  return { tripOf, trips: [...touched.values()], state, open };
}
