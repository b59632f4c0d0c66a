import { NUMERIC_KEYS, WAYPOINT_KEY, parseWaypoint } from "@/common/telemetry/keys";
import type { DataSetInput } from "@/server/telemetry/schemas";

// What a data set says, read once for all subscriptions that look at it.
export type SetFacts = {
  at: Date;
  ignition: "ON" | "RUNNING" | "OFF";
  /** ON and RUNNING mean on, OFF means off (docs/device-data.md). */
  ignitionOn: boolean;
  waypoint: { timestamp: Date; latitude: number; longitude: number } | null;
  numbers: Map<string, number>;
  troubleCodes: string[];
  /** Event keys (VEHICLE_EVENT_*) the set reports as having happened. */
  events: Set<string>;
};

// An event key sent with "false" or 0 reports that the event did not happen.
const happened = (value: string) => !/^(false|0|no|off)$/i.test(value.trim());

export function factsOf(set: DataSetInput): SetFacts {
  let waypoint: SetFacts["waypoint"] = null;
  const numbers = new Map<string, number>();
  const troubleCodes: string[] = [];
  const events = new Set<string>();
  for (const d of set.datum) {
    if (d.key === WAYPOINT_KEY) {
      const parsed = parseWaypoint(d.value);
      if (typeof parsed !== "string") waypoint = { timestamp: d.timestamp ?? set.timestamp, ...parsed };
    } else if (d.key === "GEN_DTC") {
      const code = d.value.trim();
      if (code && !troubleCodes.includes(code)) troubleCodes.push(code);
    } else if (d.key.startsWith("VEHICLE_EVENT_")) {
      if (happened(d.value)) events.add(d.key);
    } else {
      const n = Number(d.value);
      if (
        d.value.trim() !== "" &&
        Number.isFinite(n) &&
        (NUMERIC_KEYS.has(d.key) || /^-?\d+(\.\d+)?$/.test(d.value.trim()))
      )
        numbers.set(d.key, n);
    }
  }
  return {
    at: set.timestamp,
    ignition: set.ignitionStatus,
    ignitionOn: set.ignitionStatus !== "OFF",
    waypoint,
    numbers,
    troubleCodes,
    events,
  };
}

const EARTH_RADIUS_MILES = 3958.7613;

/** Great-circle distance in miles (haversine). */
export function distanceMiles(
  a: { latitude: number; longitude: number },
  b: { latitude: number; longitude: number },
): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

export const METERS_PER_MILE = 1609.344;

const formatters = new Map<string, Intl.DateTimeFormat>();
// The last clock read per zone, by whole minute: a batch's data sets are seconds apart, and
// formatToParts was the largest cost of evaluating a TIMEOFDAY subscription over a batch.
// (Zone offsets change on whole minutes, so one minute has one local clock.)
const lastMinute = new Map<string, { minute: number; clock: { day: string; minutes: number } }>();

/** Day of week (SUN..SAT) and minutes since midnight of `at` in an IANA time zone. */
export function localClock(at: Date, timeZone: string | null): { day: string; minutes: number } {
  const zone = timeZone ?? "UTC";
  const minuteOf = Math.floor(at.getTime() / 60_000);
  const last = lastMinute.get(zone);
  if (last?.minute === minuteOf) return last.clock;
  const clock = readClock(at, zone);
  lastMinute.set(zone, { minute: minuteOf, clock });
  return clock;
}

function readClock(at: Date, zone: string): { day: string; minutes: number } {
  let format = formatters.get(zone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat("en-US", {
        timeZone: zone,
        weekday: "short",
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
      });
    } catch {
      format = new Intl.DateTimeFormat("en-US", {
        timeZone: "UTC",
        weekday: "short",
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
      });
    }
    formatters.set(zone, format);
  }
  let day = "";
  let hour = 0;
  let minute = 0;
  for (const part of format.formatToParts(at)) {
    if (part.type === "weekday") day = part.value.toUpperCase();
    else if (part.type === "hour") hour = Number(part.value);
    else if (part.type === "minute") minute = Number(part.value);
  }
  return { day, minutes: hour * 60 + minute };
}
