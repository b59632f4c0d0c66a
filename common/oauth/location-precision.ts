import type { LocationPrecision } from "./grant-scope";

// Coordinates as an app may see them (docs/oauth.md#scopes): precise as stored, approximate
// rounded to 2 decimal places (0.01°, about 1 km), none not at all. Every serialiser that puts a
// latitude or longitude on the wire goes through one of these, with the grant's precision.

/** Rounded to 2 decimals; the `+ 0` turns -0 into 0 (a position just west of Greenwich). */
export const roundCoordinate = (value: number) => Math.round(value * 100) / 100 + 0;

/**
 * A {latitude, longitude, …} object at the given precision: the same object (precise), the
 * coordinates rounded (approximate), or null (none): where a position would be, the contract's
 * stable shape keeps the field and says null.
 */
export function positionAt<T extends { latitude: number; longitude: number }>(
  position: T | null,
  precision: LocationPrecision,
): T | null {
  if (!position || precision === "precise") return position;
  if (precision === "none") return null;
  return { ...position, latitude: roundCoordinate(position.latitude), longitude: roundCoordinate(position.longitude) };
}

/**
 * A GEN_WAYPOINT value ("lat,lon", as the device sent it) at the given precision: unchanged,
 * rounded ("39.96,-83"), or null when no location was granted. A value that is not two numbers is
 * not a position an app could use: approximate and none hide it too.
 */
export function waypointValueAt(value: string, precision: LocationPrecision): string | null {
  if (precision === "precise") return value;
  if (precision === "none") return null;
  const parts = value.split(",").map((p) => Number(p.trim()));
  if (parts.length !== 2 || parts.some((n) => !Number.isFinite(n) || value.trim() === "")) return null;
  return `${roundCoordinate(parts[0]!)},${roundCoordinate(parts[1]!)}`;
}
