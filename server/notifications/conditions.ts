import type {
  GeofenceCriteria,
  IgnitionFilter,
  NumericCriteria,
  StoredCriteria,
  TimeOfDayCriteria,
} from "@/server/subscriptions/criteria";
import type { EventType } from "@/common/subscriptions/event-types";
import { pointInPolygon, type LatLng } from "@/common/geo/polygon";
import { METERS_PER_MILE, distanceMiles, localClock, type SetFacts } from "./facts";

// Whether one data set meets one subscription's criteria (docs/subscriptions.md), and, for a set that
// notifies, the values its notification records (docs/subscriptions.md#notifications). `met: null` means
// the set cannot say (a GEOFENCE set without a position): it neither fires nor changes the recorded state.
// The two are separate because a batch evaluates each of its 500 sets for every subscription and few of
// them notify: building the recorded values for every set was most of evaluation's cost (docs/benchmarks.md).

const LOW_BATTERY_VOLTS = 12.0;
/** VEHICLETOWED: moved this far with the ignition off. */
const TOWED_METERS = 1500;

const EVENT_KEYS: Partial<Record<EventType, string>> = {
  VEHICLEHARSHACCEL: "VEHICLE_EVENT_HARSH_ACCEL",
  VEHICLEHARSHDECEL: "VEHICLE_EVENT_HARSH_DECEL",
  VEHICLEHARSHRIGHT: "VEHICLE_EVENT_HARSH_RIGHT",
  VEHICLEHARSHLEFT: "VEHICLE_EVENT_HARSH_LEFT",
  VEHICLEIMPACT: "VEHICLE_EVENT_HARSH_IMPACT",
  VEHICLECONNECTED: "VEHICLE_EVENT_CONNECTED",
  VEHICLEDISCONNECTED: "VEHICLE_EVENT_DISCONNECTED",
  VEHICLETOWED: "VEHICLE_EVENT_TOWED",
};

export type Anchor = { latitude: number; longitude: number } | null;

export type Outcome = {
  met: boolean | null;
  /** VEHICLETOWED only: the parking position to keep for the next set. */
  anchor?: Anchor;
};

const ignitionMatches = (filter: IgnitionFilter, facts: SetFacts) =>
  filter === "ANY" ||
  (filter === "ON" && facts.ignitionOn) ||
  (filter === "OFF" && !facts.ignitionOn) ||
  (filter === "RUNNING" && facts.ignition === "RUNNING");

function insideWindow(c: TimeOfDayCriteria, at: Date, timeZone: string | null): boolean {
  const { day, minutes } = localClock(at, timeZone);
  const start = clockMinutes(c.startTime);
  const end = clockMinutes(c.endTime);
  if (start < end) return c.daysOfWeek.includes(day as never) && minutes >= start && minutes < end;
  // A window over midnight belongs to the day it starts on.
  const days = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];
  const previous = days[(days.indexOf(day) + 6) % 7]!;
  return (
    (c.daysOfWeek.includes(day as never) && minutes >= start) ||
    (c.daysOfWeek.includes(previous as never) && minutes < end)
  );
}

const clockMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

function compare(relationship: NumericCriteria["relationship"], value: number, threshold: number): boolean {
  if (relationship === "ABOVE") return value > threshold;
  if (relationship === "BELOW") return value < threshold;
  return Math.abs(value - threshold) < 1e-9;
}

// A polygon is judged by the same function as the driver's places (common/geo/polygon.ts).
const boundaryCondition = (c: GeofenceCriteria, at: LatLng) =>
  (c.polygon ? pointInPolygon(at, c.polygon) : distanceMiles(c.origin, at) <= c.radius) ? "INSIDE" : "OUTSIDE";

export function evaluateCondition(
  type: EventType,
  criteria: StoredCriteria,
  facts: SetFacts,
  context: { timeZone: string | null; anchor: Anchor },
): Outcome {
  switch (type) {
    case "WAYPOINT":
      return { met: facts.waypoint !== null };
    case "GEOFENCE": {
      const c = criteria as GeofenceCriteria;
      if (!facts.waypoint || !ignitionMatches(c.ignitionStatus, facts)) return { met: null };
      return { met: boundaryCondition(c, facts.waypoint) === c.boundaryCondition };
    }
    case "IGNITIONSTATUS":
      return { met: facts.ignitionOn };
    case "LOWBATTERY": {
      const volts = facts.numbers.get("GEN_VOLTAGE");
      return { met: volts === undefined ? null : volts < LOW_BATTERY_VOLTS };
    }
    case "NUMERICDATAKEY": {
      const c = criteria as NumericCriteria;
      const value = facts.numbers.get(c.dataKey);
      return { met: value === undefined ? null : compare(c.relationship, value, c.thresholdValue) };
    }
    case "TIMEOFDAY": {
      const c = criteria as TimeOfDayCriteria;
      // Driven (per the ignition filter) outside the allowed window.
      return { met: ignitionMatches(c.ignitionStatus, facts) && !insideWindow(c, facts.at, context.timeZone) };
    }
    case "TROUBLECODE":
      return { met: facts.troubleCodes.length > 0 };
    case "VEHICLETOWED": {
      const here: Anchor = facts.waypoint
        ? { latitude: facts.waypoint.latitude, longitude: facts.waypoint.longitude }
        : null;
      // Reported by the device, or seen: moved about 1,500 m since the ignition went off. A set
      // with the ignition on, or parked within 1,500 m of the last position, says it stopped.
      if (facts.events.has(EVENT_KEYS.VEHICLETOWED!))
        return { met: true, anchor: facts.ignitionOn ? null : (here ?? context.anchor) };
      if (facts.ignitionOn) return { met: false, anchor: null };
      if (!here) return { met: null, anchor: context.anchor };
      if (!context.anchor) return { met: false, anchor: here };
      const moved = distanceMiles(context.anchor, here) * METERS_PER_MILE >= TOWED_METERS;
      // After a tow is reported, the new position is where the next one is measured from.
      return { met: moved, anchor: moved ? here : context.anchor };
    }
    default: {
      // A momentary event: every set either carries it or not.
      const key = EVENT_KEYS[type];
      return { met: key ? facts.events.has(key) : null };
    }
  }
}

/**
 * What the notification of a set records, the set having met the criteria (`met`) or, under
 * STATECHANGE, stopped meeting them: the set's position, and the values its type names. Without a
 * set (null: a test notification, server/notifications/service.ts) the same members, each recorded
 * value null and the criteria's own values as they are: the shape a receiver must parse.
 */
export function recordedValues(
  type: EventType,
  criteria: StoredCriteria,
  set: { facts: SetFacts; met: boolean } | null,
): Record<string, unknown> {
  const facts = set?.facts;
  const recordedWaypoint = facts?.waypoint
    ? { timestamp: facts.waypoint.timestamp, latitude: facts.waypoint.latitude, longitude: facts.waypoint.longitude }
    : null;
  const base = { recordedWaypoint };

  switch (type) {
    case "WAYPOINT":
    case "TIMEOFDAY":
      return base;
    case "GEOFENCE":
      // A set without a position says nothing of a geofence (met: null), so it never notifies.
      return {
        ...base,
        recordedBoundaryCondition: facts ? boundaryCondition(criteria as GeofenceCriteria, facts.waypoint!) : null,
      };
    case "IGNITIONSTATUS":
      return { ...base, ignitionStatus: facts ? (facts.ignitionOn ? "ON" : "OFF") : null };
    case "LOWBATTERY":
      return {
        ...base,
        thresholdVoltage: LOW_BATTERY_VOLTS,
        recordedVoltage: facts ? facts.numbers.get("GEN_VOLTAGE") : null,
      };
    case "NUMERICDATAKEY": {
      const c = criteria as NumericCriteria;
      return {
        ...base,
        dataKey: c.dataKey,
        thresholdValue: c.thresholdValue,
        relationship: c.relationship,
        recordedValue: facts ? facts.numbers.get(c.dataKey) : null,
      };
    }
    case "TROUBLECODE":
      return { ...base, troubleCodes: facts ? facts.troubleCodes : null };
    default:
      // VEHICLETOWED and the momentary events: recordedEvent is false only in STATECHANGE's
      // notification that the event stopped arriving.
      return { ...base, recordedEvent: set ? set.met : null };
  }
}
