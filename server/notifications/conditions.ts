import type {
  GeofenceCriteria,
  IgnitionFilter,
  NumericCriteria,
  StoredCriteria,
  TimeOfDayCriteria,
} from "@/server/subscriptions/criteria";
import type { EventType } from "@/common/subscriptions/event-types";
import { METERS_PER_MILE, distanceMiles, localClock, type SetFacts } from "./facts";

// Whether one data set meets one subscription's criteria (docs/subscriptions.md), and the values the
// notification records (docs/subscriptions.md#notifications). `met: null` means the set cannot say (a GEOFENCE set
// without a position): it neither fires nor changes the recorded state.

export const LOW_BATTERY_VOLTS = 12.0;
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
  recorded: Record<string, unknown>;
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

export function evaluateCondition(
  type: EventType,
  criteria: StoredCriteria,
  facts: SetFacts,
  context: { timeZone: string | null; anchor: Anchor },
): Outcome {
  const recordedWaypoint = facts.waypoint
    ? { timestamp: facts.waypoint.timestamp, latitude: facts.waypoint.latitude, longitude: facts.waypoint.longitude }
    : null;
  const base = { recordedWaypoint };

  switch (type) {
    case "WAYPOINT":
      return { met: facts.waypoint !== null, recorded: base };
    case "GEOFENCE": {
      const c = criteria as GeofenceCriteria;
      if (!facts.waypoint || !ignitionMatches(c.ignitionStatus, facts)) return { met: null, recorded: base };
      const inside = distanceMiles(c.origin, facts.waypoint) <= c.radius;
      const recordedBoundaryCondition = inside ? "INSIDE" : "OUTSIDE";
      return {
        met: recordedBoundaryCondition === c.boundaryCondition,
        recorded: { ...base, recordedBoundaryCondition },
      };
    }
    case "IGNITIONSTATUS":
      return { met: facts.ignitionOn, recorded: { ...base, ignitionStatus: facts.ignitionOn ? "ON" : "OFF" } };
    case "LOWBATTERY": {
      const volts = facts.numbers.get("GEN_VOLTAGE");
      if (volts === undefined) return { met: null, recorded: base };
      return {
        met: volts < LOW_BATTERY_VOLTS,
        recorded: { ...base, thresholdVoltage: LOW_BATTERY_VOLTS, recordedVoltage: volts },
      };
    }
    case "NUMERICDATAKEY": {
      const c = criteria as NumericCriteria;
      const value = facts.numbers.get(c.dataKey);
      if (value === undefined) return { met: null, recorded: base };
      return {
        met: compare(c.relationship, value, c.thresholdValue),
        recorded: {
          ...base,
          dataKey: c.dataKey,
          thresholdValue: c.thresholdValue,
          relationship: c.relationship,
          recordedValue: value,
        },
      };
    }
    case "TIMEOFDAY": {
      const c = criteria as TimeOfDayCriteria;
      // Driven (per the ignition filter) outside the allowed window.
      return {
        met: ignitionMatches(c.ignitionStatus, facts) && !insideWindow(c, facts.at, context.timeZone),
        recorded: base,
      };
    }
    case "TROUBLECODE":
      return { met: facts.troubleCodes.length > 0, recorded: { ...base, troubleCodes: facts.troubleCodes } };
    case "VEHICLETOWED": {
      const here: Anchor = facts.waypoint
        ? { latitude: facts.waypoint.latitude, longitude: facts.waypoint.longitude }
        : null;
      const towed = (met: boolean) => ({ ...base, recordedEvent: met });
      // Reported by the device, or seen: moved about 1,500 m since the ignition went off. A set
      // with the ignition on, or parked within 1,500 m of the last position, says it stopped.
      if (facts.events.has(EVENT_KEYS.VEHICLETOWED!))
        return { met: true, recorded: towed(true), anchor: facts.ignitionOn ? null : (here ?? context.anchor) };
      if (facts.ignitionOn) return { met: false, recorded: towed(false), anchor: null };
      if (!here) return { met: null, recorded: base, anchor: context.anchor };
      if (!context.anchor) return { met: false, recorded: towed(false), anchor: here };
      const moved = distanceMiles(context.anchor, here) * METERS_PER_MILE >= TOWED_METERS;
      // After a tow is reported, the new position is where the next one is measured from.
      return { met: moved, recorded: towed(moved), anchor: moved ? here : context.anchor };
    }
    default: {
      // A momentary event: every set either carries it or not. recordedEvent is false only in
      // STATECHANGE's notification that it stopped arriving.
      const key = EVENT_KEYS[type];
      if (!key) return { met: null, recorded: base };
      const met = facts.events.has(key);
      return { met, recorded: { ...base, recordedEvent: met } };
    }
  }
}
