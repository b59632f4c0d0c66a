import { CATEGORY_BIT, type AccessRule } from "@/common/access/categories";
import { LOCATION_KEYS } from "@/common/telemetry/keys";

// How one item of an answer counts in the access log (docs/driver-site.md#data-access): whose data
// it is and which categories it carries. Each operation names its rule in its operations.ts, so
// the table of what counts is next to the operations; an operation without a rule counts nothing.
// The rules look at what the answer really carries (a vehicle without a position carries no
// location), so that an answer with less in it counts less.

const { location, vehicle_data: vehicleData, identity, events } = CATEGORY_BIT;

type Item = Record<string, unknown>;
const num = (v: unknown): number | null => (typeof v === "number" ? v : null);
const hasWaypoint = (v: unknown) => v !== null && v !== undefined;

/** A location event (the position is the point of it), else an event of another kind. */
export function notificationCategory(type: string): number {
  return type === "WAYPOINT" || type === "GEOFENCE" ? location : events;
}

/** A position or the address near one is location; every other point vehicle data. */
const pointCategory = (key: unknown) => (LOCATION_KEYS.has(String(key)) ? location : vehicleData);

function datumMask(datum: unknown): number {
  let mask = 0;
  if (!Array.isArray(datum)) return mask;
  for (const point of datum as Item[]) mask |= pointCategory(point.key);
  return mask;
}

export const accessRules = {
  /** An account's own fields. */
  account: (item) => ({ accountId: num((item as Item).id), vehicleId: null, mask: identity }),
  /** A vehicle: mileage and running state always, its last position when it has one. */
  vehicle: (item) => {
    const v = item as Item;
    return {
      accountId: num(v.accountId),
      vehicleId: null,
      mask: vehicleData | (hasWaypoint(v.lastWaypoint) ? location : 0),
    };
  },
  /** A data set: its points, a position or vehicle data each. */
  dataSet: (item) => {
    const s = item as Item;
    const mask = datumMask(s.datum);
    return mask === 0 ? null : { accountId: null, vehicleId: num(s.vehicleId), mask };
  },
  /** A trip: its mileage and times, its start and end positions, and its data sets when asked for. */
  trip: (item) => {
    const t = item as Item;
    let mask = vehicleData;
    if (hasWaypoint(t.startWaypoint) || hasWaypoint(t.endWaypoint)) mask |= location;
    if (Array.isArray(t.data)) for (const s of t.data as Item[]) mask |= datumMask(s.datum);
    return { accountId: null, vehicleId: num(t.vehicleId), mask };
  },
  /** One data point. */
  dataPoint: (item) => {
    const p = item as Item;
    return { accountId: null, vehicleId: num(p.vehicleId), mask: pointCategory(p.key) };
  },
  /** A notification or feed event: location for waypoint and geofence events, events otherwise. */
  notification: (item) => {
    const n = item as Item;
    return {
      accountId: num(n.accountId),
      vehicleId: num(n.vehicleId),
      mask: notificationCategory(String(n._type)),
    };
  },
} satisfies Record<string, AccessRule>;
