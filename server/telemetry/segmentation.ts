import { NUMERIC_KEYS, WAYPOINT_KEY, parseWaypoint, type Waypoint } from "./keys";
import type { DataSetInput } from "./schemas";

// Trip segmentation and vehicle state, as a pure function over one vehicle's state and a batch
// of new (deduplicated) data sets in timestamp order (docs/device-data.md):
// - ON opens a trip (closing an open one first, at its last data set), RUNNING extends the open
//   trip or opens one, OFF closes it with GEN_TRIP_MILEAGE as its mileage.
// - A data set older than the vehicle's newest is late: it changes neither trips nor state and
//   is attached to whichever trip's time span holds it (resolved by the caller in SQL).
// - mileage adds a closing trip's mileage; a GEN_ODOMETER above it replaces it; never decreases.

export type TimedWaypoint = Waypoint & { at: Date };

export type OpenTrip = {
  /** An existing trip's id, or a negative placeholder for a trip this batch creates. */
  ref: number;
  startTime: Date;
  lastDataAt: Date;
  endTime: Date | null;
  mileage: number | null;
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

const numberOf = (set: DataSetInput, key: string): number | null => {
  const point = set.datum.findLast((d) => d.key === key);
  return point && NUMERIC_KEYS.has(key) ? Number(point.value) : null;
};

const waypointOf = (set: DataSetInput): TimedWaypoint | null => {
  const point = set.datum.findLast((d) => d.key === WAYPOINT_KEY);
  if (!point) return null;
  const parsed = parseWaypoint(point.value);
  return typeof parsed === "string" ? null : { ...parsed, at: point.timestamp ?? set.timestamp };
};

export function planIngest(initial: { state: VehicleState; openTrip: OpenTrip | null }, sets: DataSetInput[]): Plan {
  const state: VehicleState = { ...initial.state };
  let open: OpenTrip | null = initial.openTrip ? { ...initial.openTrip } : null;
  const touched = new Map<number, OpenTrip>();
  let nextRef = -1;

  const startTrip = (at: Date, waypoint: TimedWaypoint | null): OpenTrip => {
    const trip: OpenTrip = { ref: nextRef--, startTime: at, lastDataAt: at, endTime: null, mileage: null, start: waypoint, end: waypoint };
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
    let trip: OpenTrip | null = null;
    if (set.ignitionStatus === "ON") {
      if (open) closeTrip(open, open.lastDataAt, null);
      open = trip = startTrip(at, waypoint);
    } else if (set.ignitionStatus === "RUNNING") {
      open ??= startTrip(at, waypoint);
      trip = open;
    } else if (open) {
      trip = open;
      const tripMileage = numberOf(set, "GEN_TRIP_MILEAGE");
      closeTrip(open, at, tripMileage);
      if (tripMileage !== null && tripMileage > 0) state.mileage += tripMileage;
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

    const odometer = numberOf(set, "GEN_ODOMETER");
    if (odometer !== null && odometer > state.mileage) state.mileage = odometer;
    state.running = set.ignitionStatus !== "OFF";
    if (state.running) state.lastRunningAt = at;
    state.lastDataAt = at;
    if (waypoint && (!state.lastWaypoint || waypoint.at.getTime() >= state.lastWaypoint.at.getTime())) state.lastWaypoint = waypoint;
    if (set.vin) state.vin = set.vin;
    return trip ? trip.ref : null;
  });

  return { tripOf, trips: [...touched.values()], state, open };
}
