import { metersPerSecondFromKnots } from "../data-points";
import type { AttributeValue, DeviceRecord } from "../record";
import type { OsmAndRequest } from "./request";

// What a phone app sends to an OsmAnd server: the parameters in a query string (OsmAnd, Traccar
// Client up to 8) or a form body, or Traccar Client 9's JSON body. The inverse of request.ts, for
// the device stand-in (server/devices/stand-in/) and the tests.

export type OsmAndForm = "query" | "form" | "json";

/** Parameters request.ts reads for themselves: an attribute of one of these names cannot be sent as one. */
const NAMED = new Set([
  "id",
  "deviceid",
  "valid",
  "timestamp",
  "lat",
  "lon",
  "location",
  "speed",
  "bearing",
  "heading",
  "altitude",
  "accuracy",
  "batt",
  "ignition",
]);

const text = (value: AttributeValue) => String(value);

/**
 * A record as the app's request, `GET path?…` for the query form, `POST path` with a body for the
 * others. The parameter forms carry the id, the time (seconds, or milliseconds where it has them),
 * the position, speed (knots), course, altitude, accuracy, `BATTERY_LEVEL` as `batt`, the ignition,
 * no fix as `valid=false`, and every other attribute under its name in lower case; the JSON form
 * carries what Traccar Client 9 sends (below). An odometer, a supply voltage and an alarm have no
 * parameter of their own and are not sent.
 */
export function encodeOsmAnd(record: DeviceRecord, form: OsmAndForm, path = "/"): OsmAndRequest {
  if (form === "json")
    return {
      method: "POST",
      url: path,
      contentType: "application/json",
      body: new TextEncoder().encode(JSON.stringify(jsonBody(record))),
    };
  const params = new URLSearchParams({ id: record.deviceId });
  const ms = record.fixTime.getTime();
  params.set("timestamp", String(ms % 1000 === 0 ? ms / 1000 : ms));
  if (record.position) {
    params.set("lat", String(record.position.latitude));
    params.set("lon", String(record.position.longitude));
  }
  if (record.course !== undefined) params.set("bearing", String(record.course));
  if (record.speedKnots !== undefined) params.set("speed", String(record.speedKnots));
  if (record.altitude !== undefined) params.set("altitude", String(record.altitude));
  if (record.accuracy !== undefined) params.set("accuracy", String(record.accuracy));
  if (record.ignition !== undefined) params.set("ignition", String(record.ignition));
  if (!record.valid) params.set("valid", "false");
  for (const [name, value] of Object.entries(record.attributes)) {
    if (name === "BATTERY_LEVEL") params.set("batt", text(value));
    else if (!NAMED.has(name.toLowerCase())) params.set(name.toLowerCase(), text(value));
  }
  if (form === "query") return { method: "GET", url: `${path}?${params}`, contentType: null, body: new Uint8Array() };
  return {
    method: "POST",
    url: path,
    contentType: "application/x-www-form-urlencoded",
    body: new TextEncoder().encode(params.toString()),
  };
}

/**
 * Traccar Client 9's body: `location.timestamp` (ISO 8601), `coords` (position, speed in m/s,
 * heading, altitude, accuracy), `odometer` (metres), `battery` (`BATTERY_LEVEL` as a fraction,
 * `CHARGE`), `is_moving` (`MOTION`), `event`, `activity.type`, and the ignition and every other
 * attribute in `extras`. It has no fix flag (every record is taken as a fix) and no coordinates
 * without a position, so the speed and course of a record without one are not sent.
 */
function jsonBody(record: DeviceRecord): unknown {
  const { BATTERY_LEVEL, CHARGE, MOTION, EVENT, ACTIVITY, ...others } = record.attributes;
  const location: Record<string, unknown> = { timestamp: record.fixTime.toISOString() };
  if (record.position) {
    const coords: Record<string, number> = { ...record.position };
    if (record.speedKnots !== undefined) coords.speed = metersPerSecondFromKnots(record.speedKnots);
    if (record.course !== undefined) coords.heading = record.course;
    if (record.altitude !== undefined) coords.altitude = record.altitude;
    if (record.accuracy !== undefined) coords.accuracy = record.accuracy;
    location.coords = coords;
  }
  if (record.odometerMeters !== undefined) location.odometer = record.odometerMeters;
  const battery: Record<string, unknown> = {};
  if (typeof BATTERY_LEVEL === "number") battery.level = BATTERY_LEVEL / 100;
  if (typeof CHARGE === "boolean") battery.is_charging = CHARGE;
  if (Object.keys(battery).length > 0) location.battery = battery;
  if (typeof MOTION === "boolean") location.is_moving = MOTION;
  if (typeof EVENT === "string") location.event = EVENT;
  if (typeof ACTIVITY === "string") location.activity = { type: ACTIVITY };
  const extras: Record<string, AttributeValue> = {};
  if (record.ignition !== undefined) extras.ignition = record.ignition;
  for (const [name, value] of Object.entries(others)) extras[name.toLowerCase()] = value;
  location.extras = extras;
  return { location, device_id: record.deviceId };
}
