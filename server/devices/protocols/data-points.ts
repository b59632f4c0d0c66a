import { METERS_PER_MILE } from "@/server/simulator/geo";
import { WAYPOINT_KEY } from "@/common/telemetry/keys";
import { milesOfInput } from "@/common/telemetry/miles";
import type { DeviceRecord } from "./record";

// A device record as the data points of its data set (docs/devices.md#records-and-data-points):
// the keys and units of an API post (docs/device-data.md#keys-and-translated-values), and every
// other attribute as DEVICE_<NAME> with its value as received.

type DevicePoint = { key: string; value: string };

const METERS_PER_NAUTICAL_MILE = 1852;
const MAX_FUTURE_MS = 24 * 3600_000;
// What a data set takes (server/telemetry/schemas.ts): keys of letters, digits and underscores up
// to 64 characters, values up to 1000 characters, 200 points.
const MAX_KEY = 64;
const MAX_VALUE = 1000;
const MAX_POINTS = 200;

/**
 * Alarms our key catalogue has an event for. A power cut is the tracker losing the vehicle's
 * supply, which is what VEHICLE_EVENT_DISCONNECTED says; an alarm without an event of its own (an
 * SOS button, a parked car shaken) stays DEVICE_ALARM with the device's word for it.
 */
const ALARM_EVENTS: Record<string, string> = {
  powerCut: "VEHICLE_EVENT_DISCONNECTED",
  acceleration: "VEHICLE_EVENT_HARSH_ACCEL",
  braking: "VEHICLE_EVENT_HARSH_DECEL",
  accident: "VEHICLE_EVENT_HARSH_IMPACT",
};

const round = (n: number, decimals: number) => {
  const f = 10 ** decimals;
  return Math.round(n * f) / f;
};

export const knotsFromKmh = (kmh: number) => (kmh * 1000) / METERS_PER_NAUTICAL_MILE;
export const knotsFromMetersPerSecond = (mps: number) => (mps * 3600) / METERS_PER_NAUTICAL_MILE;
// The encoders' way back (server/devices/protocols/*/encode.ts).
export const kmhFromKnots = (knots: number) => (knots * METERS_PER_NAUTICAL_MILE) / 1000;
export const metersPerSecondFromKnots = (knots: number) => (knots * METERS_PER_NAUTICAL_MILE) / 3600;
export const mphFromKnots = (knots: number) => (knots * METERS_PER_NAUTICAL_MILE) / METERS_PER_MILE;

/** A record's data points, in a fixed order: the GEN_ keys, the alarm, then the attributes by name. */
export function dataPointsOf(record: DeviceRecord): DevicePoint[] {
  const points: DevicePoint[] = [];
  const add = (key: string, value: number | string | boolean) => {
    const text = String(value);
    if (key.length <= MAX_KEY && text.length <= MAX_VALUE && points.length < MAX_POINTS)
      points.push({ key, value: text });
  };
  if (record.position) {
    const { latitude, longitude } = record.position;
    add(WAYPOINT_KEY, `${latitude.toFixed(6)},${longitude.toFixed(6)}`);
  }
  if (record.speedKnots !== undefined) add("GEN_SPEED", round(mphFromKnots(record.speedKnots), 1));
  if (record.course !== undefined) add("GEN_HEADING", round(record.course, 1));
  if (record.odometerMeters !== undefined) add("GEN_ODOMETER", milesOfInput(record.odometerMeters / METERS_PER_MILE));
  if (record.powerMillivolts !== undefined) add("GEN_VOLTAGE", record.powerMillivolts / 1000);
  if (record.altitude !== undefined) add("DEVICE_ALTITUDE", record.altitude);
  if (record.accuracy !== undefined) add("DEVICE_ACCURACY", record.accuracy);
  if (record.alarm !== undefined) {
    const event = ALARM_EVENTS[record.alarm];
    if (event) add(event, true);
    else add("DEVICE_ALARM", record.alarm);
  }
  for (const [name, value] of Object.entries(record.attributes)) add(`DEVICE_${name}`, value);
  return points;
}

/**
 * An attribute's name as a data key's tail: `batteryLevel` → `BATTERY_LEVEL`, `device-id` →
 * `DEVICE_ID`; null when nothing of it is usable.
 */
export function attributeName(raw: string): string | null {
  const name = raw
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toUpperCase();
  return name === "" ? null : name;
}

/**
 * Why a frame's record cannot be stored (docs/devices.md#bad-input): a coordinate no place has, or
 * a time more than 24 hours after `now`; null when it can.
 */
export function recordProblem(record: DeviceRecord, now: Date): string | null {
  if (Number.isNaN(record.fixTime.getTime())) return "invalid time";
  if (record.fixTime.getTime() > now.getTime() + MAX_FUTURE_MS) return "record dated more than 24 h ahead";
  const p = record.position;
  if (p) {
    if (!Number.isFinite(p.latitude) || p.latitude < -90 || p.latitude > 90) return "impossible latitude";
    if (!Number.isFinite(p.longitude) || p.longitude < -180 || p.longitude > 180) return "impossible longitude";
  }
  return null;
}

/** The first problem of a frame's records: one bad record refuses the frame, so none of it is stored. */
export function recordsProblem(records: readonly DeviceRecord[], now: Date): string | null {
  for (const record of records) {
    const problem = recordProblem(record, now);
    if (problem) return problem;
  }
  return null;
}
