import { attributeName, knotsFromMetersPerSecond, recordsProblem } from "../data-points";
import { type AttributeValue, type DeviceRecord, type Refusal, refusal } from "../record";

// OsmAnd over HTTP, as Traccar Client and other phone apps send it (docs/devices.md#osmand): the
// parameters in the query string, else in a form body, or a JSON body (Traccar Client 9). Any
// method is taken. A refusal is answered 400.

export type OsmAndRequest = { method: string; url: string; contentType: string | null; body: Uint8Array };

type Parsed = { records: DeviceRecord[] };

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
// Seconds since 1970 up to Java's Integer.MAX_VALUE (2038), milliseconds above (Traccar's rule).
const LARGEST_SECONDS = 2_147_483_647;
const ISO = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?$/i;
const SPACED = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/;

/** The request's one record, or why it is refused. `now` stands in for a missing timestamp. */
export function parseOsmAndRequest(request: OsmAndRequest, now: Date): Parsed | Refusal {
  const body = new TextDecoder().decode(request.body);
  const parsed = isJson(request.contentType, body) ? fromJson(body, now) : fromParameters(request, body, now);
  if ("refused" in parsed) return parsed;
  const problem = recordsProblem(parsed.records, now);
  return problem ? refusal(problem, parsed.records[0]?.deviceId) : parsed;
}

const isJson = (contentType: string | null, body: string) =>
  contentType ? /\bjson\b/i.test(contentType) : body.trimStart().startsWith("{");

function fromParameters(request: OsmAndRequest, body: string, now: Date): Parsed | Refusal {
  const query = new URL(request.url, "http://device.invalid").searchParams;
  const params = [...query].length > 0 ? query : new URLSearchParams(body);
  const values = new Map<string, string[]>();
  for (const [key, value] of params) values.set(key, [...(values.get(key) ?? []), value]);

  const deviceId = values.get("id")?.[0] ?? values.get("deviceid")?.[0];
  if (!deviceId) return refusal("no id or deviceid");
  const record: DeviceRecord = { deviceId, fixTime: now, position: null, valid: true, attributes: {} };
  let latitude: number | undefined;
  let longitude: number | undefined;

  for (const [key, all] of values) {
    const value = all[0]!;
    const number = () => {
      if (!NUMBER.test(value.trim())) throw new Malformed(`${key} is not a number`);
      return Number(value);
    };
    try {
      switch (key) {
        case "id":
        case "deviceid":
          break;
        case "valid":
          record.valid = value === "true" || value === "1";
          break;
        case "timestamp": {
          const time = timestampOf(value);
          if (!time) return refusal(`timestamp ${value} is not a time`, deviceId);
          record.fixTime = time;
          break;
        }
        case "lat":
          latitude = number();
          break;
        case "lon":
          longitude = number();
          break;
        case "location": {
          const [lat, lon, ...extra] = value.split(",");
          if (extra.length > 0 || !lat || !lon || !NUMBER.test(lat.trim()) || !NUMBER.test(lon.trim()))
            return refusal("location is not lat,lon", deviceId);
          latitude = Number(lat);
          longitude = Number(lon);
          break;
        }
        case "speed":
          record.speedKnots = number();
          break;
        case "bearing":
        case "heading":
          record.course = number();
          break;
        case "altitude":
          record.altitude = number();
          break;
        case "accuracy":
          record.accuracy = number();
          break;
        case "batt":
          record.attributes.BATTERY_LEVEL = number();
          break;
        case "ignition":
          if (!/^(true|false|1|0)$/.test(value)) return refusal("ignition is not true or false", deviceId);
          record.ignition = value === "true" || value === "1";
          break;
        default: {
          const name = attributeName(key);
          if (name) record.attributes[name] = all.length > 1 ? all.join(";") : valueOf(value);
        }
      }
    } catch (error) {
      if (error instanceof Malformed) return refusal(error.message, deviceId);
      throw error;
    }
  }
  if ((latitude === undefined) !== (longitude === undefined))
    return refusal("lat without lon, or lon without lat", deviceId);
  if (latitude !== undefined && longitude !== undefined && (latitude !== 0 || longitude !== 0))
    record.position = { latitude, longitude };
  return { records: [record] };
}

class Malformed extends Error {}

/** Any other parameter: a number, a flag or a text, as Traccar keeps it. */
const valueOf = (value: string): AttributeValue =>
  NUMBER.test(value.trim()) ? Number(value) : value === "true" ? true : value === "false" ? false : value;

/** Seconds, milliseconds, ISO 8601 (UTC when it names no zone) or `yyyy-MM-dd HH:mm:ss` in UTC. */
function timestampOf(value: string): Date | null {
  let ms: number;
  if (/^\d+$/.test(value)) {
    const n = Number(value);
    ms = n < LARGEST_SECONDS ? n * 1000 : n;
  } else {
    const iso = ISO.exec(value);
    const spaced = SPACED.exec(value);
    if (iso) {
      const zone = (iso[3] ?? "Z").toUpperCase().replace(/^([+-]\d{2})(\d{2})$/, "$1:$2");
      ms = Date.parse(`${iso[1]}T${iso[2]}${zone}`);
    } else if (spaced) ms = Date.parse(`${spaced[1]}T${spaced[2]}Z`);
    else return null;
  }
  const time = new Date(ms);
  return Number.isNaN(time.getTime()) ? null : time;
}

type Json = Record<string, unknown>;
const object = (v: unknown): Json | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
const finite = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
// The app sends -1 for what it does not know (speed, heading, accuracy, battery level).
const known = (v: unknown): number | undefined => {
  const n = finite(v);
  return n !== undefined && n >= 0 ? n : undefined;
};

/** Traccar Client 9: `{"location": {"timestamp", "coords": {…}, "battery": {…}, …}, "device_id"}`. */
function fromJson(body: string, now: Date): Parsed | Refusal {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return refusal("a body that is not JSON");
  }
  const root = object(json);
  const location = object(root?.location);
  const rawId = root?.device_id;
  const deviceId = typeof rawId === "string" ? rawId : typeof rawId === "number" ? String(rawId) : "";
  if (!root || !location) return refusal("no location");
  if (!deviceId) return refusal("no device_id");

  let fixTime = now;
  if (location.timestamp !== undefined) {
    const time =
      typeof location.timestamp === "string" || typeof location.timestamp === "number"
        ? timestampOf(String(location.timestamp))
        : null;
    if (!time) return refusal("location.timestamp is not a time", deviceId);
    fixTime = time;
  }
  const coords = object(location.coords);
  const latitude = finite(coords?.latitude);
  const longitude = finite(coords?.longitude);
  if (coords && (latitude === undefined || longitude === undefined))
    return refusal("coords without latitude and longitude", deviceId);

  const record: DeviceRecord = {
    deviceId,
    fixTime,
    position:
      latitude !== undefined && longitude !== undefined && (latitude !== 0 || longitude !== 0)
        ? { latitude, longitude }
        : null,
    valid: true,
    attributes: {},
  };
  const speed = known(coords?.speed);
  if (speed !== undefined) record.speedKnots = knotsFromMetersPerSecond(speed);
  const heading = known(coords?.heading);
  if (heading !== undefined) record.course = heading;
  const altitude = finite(coords?.altitude);
  if (altitude !== undefined) record.altitude = altitude;
  const accuracy = known(coords?.accuracy);
  if (accuracy !== undefined) record.accuracy = accuracy;
  const odometer = known(location.odometer);
  if (odometer !== undefined) record.odometerMeters = odometer;

  const battery = object(location.battery);
  const level = known(battery?.level);
  // A fraction from 0 to 1 in this form, a percentage in the others.
  if (level !== undefined) record.attributes.BATTERY_LEVEL = Math.round(level * 100);
  if (typeof battery?.is_charging === "boolean") record.attributes.CHARGE = battery.is_charging;
  if (typeof location.is_moving === "boolean") record.attributes.MOTION = location.is_moving;
  if (typeof location.event === "string") record.attributes.EVENT = location.event;
  const activity = object(location.activity);
  if (typeof activity?.type === "string") record.attributes.ACTIVITY = activity.type;

  for (const [key, value] of Object.entries(object(location.extras) ?? {})) {
    if (key === "ignition" && typeof value === "boolean") record.ignition = value;
    else if (typeof value === "string" || typeof value === "boolean" || finite(value) !== undefined) {
      const name = attributeName(key);
      if (name) record.attributes[name] = value as AttributeValue;
    }
  }
  return { records: [record] };
}
