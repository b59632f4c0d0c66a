import { wholeMilesText } from "./miles";

// Data keys (docs/device-data.md#keys-and-translated-values) and how each value is read and shown.

export const NUMERIC_KEYS = new Set([
  "GEN_HEADING",
  "GEN_VOLTAGE",
  "GEN_SPEED",
  "GEN_RPM",
  "GEN_FUELLEVEL",
  "GEN_FUELRATE",
  "GEN_ENGINE_COOLANT_TEMP",
  "GEN_ODOMETER",
  "GEN_TRIP_MILEAGE",
]);

export const WAYPOINT_KEY = "GEN_WAYPOINT";

/**
 * The keys that say where the vehicle is: the position, and the address near it. Each is a position
 * wherever positions are ruled (docs/oauth.md#scopes): not stored while location is paused, hidden
 * from an app without precise location (an address cannot be rounded), counted as location in the
 * access log.
 */
export const LOCATION_KEYS: ReadonlySet<string> = new Set([WAYPOINT_KEY, "GEN_NEAREST_ADDRESS"]);

export type Waypoint = { latitude: number; longitude: number };

// Two decimal numbers and one comma, with white space around either number (what trim() removes,
// which is what \s matches). One regular expression rather than split, trim and test each part: a
// batch parses every waypoint two or three times (validation, trips, subscriptions), and the parts
// were 3 % of node's time under batches (docs/benchmarks.md).
const WAYPOINT_TEXT = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/;

/** "lat,lon" → a waypoint, or a reason it is impossible. */
export function parseWaypoint(value: string): Waypoint | string {
  const match = WAYPOINT_TEXT.exec(value);
  if (!match) return 'Must be "latitude,longitude", e.g. "28.036441,-82.593687".';
  const latitude = Number(match[1]);
  const longitude = Number(match[2]);
  if (latitude < -90 || latitude > 90) return "Latitude must be between -90 and 90.";
  if (longitude < -180 || longitude > 180) return "Longitude must be between -180 and 180.";
  if (latitude === 0 && longitude === 0) return "0,0 is not a real position (a device without a fix reports it).";
  return { latitude, longitude };
}

const oneDecimal = (n: number) => n.toFixed(1);
const integer = (n: number) => String(Math.round(n));

// translatedValue per docs/device-data.md#keys-and-translated-values; keys without a rule show the value as received.
const translations: Record<string, (n: number) => string> = {
  GEN_VOLTAGE: (n) => `${oneDecimal(n)}V`,
  GEN_SPEED: (n) => `${oneDecimal(n)} mph`,
  GEN_HEADING: (n) => `${integer(n)} deg`,
  GEN_FUELLEVEL: (n) => `${integer(n)} %`,
  GEN_FUELRATE: (n) => `${oneDecimal(n)} gph`,
  GEN_RPM: (n) => `${integer(n)} rpm`,
  // (fixed) °C × 1.8 + 32; the original computed (°C + 32) × 1.8.
  GEN_ENGINE_COOLANT_TEMP: (n) => `${oneDecimal(n * 1.8 + 32)} deg F`,
};

// Mileages round on their digits, exactly at any length ("4.5" → 5, never 4.499… → 4).
const mileKeys = new Set(["GEN_TRIP_MILEAGE", "GEN_ODOMETER"]);

export function translateValue(key: string, value: string): string {
  if (mileKeys.has(key)) {
    const whole = wholeMilesText(value);
    return whole === null ? value : `${whole} miles`;
  }
  const rule = translations[key];
  if (!rule) return value;
  const n = Number(value);
  return Number.isFinite(n) && value.trim() !== "" ? rule(n) : value;
}
