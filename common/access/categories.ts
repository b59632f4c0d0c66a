// The access log's data categories (docs/driver-site.md#data-access), shared by the server, which
// counts answers in them, and the driver site and console, which show them.

export const ACCESS_CATEGORIES = ["location", "vehicle_data", "identity", "events"] as const;
export type AccessCategory = (typeof ACCESS_CATEGORIES)[number];

export const ACCESS_CATEGORY_LABELS: Record<AccessCategory, string> = {
  location: "Location",
  vehicle_data: "Vehicle data",
  identity: "Account details",
  events: "Events",
};

/** What each category holds, as the driver site explains it. */
export const ACCESS_CATEGORY_HELP: Record<AccessCategory, string> = {
  location: "positions, trip paths, geofence and waypoint events",
  vehicle_data: "mileage, fuel, battery, trouble codes, running state",
  identity: "your name, username and contact details",
  events: "other notifications about your vehicles",
};

/** A set of categories as bits, so that an answer's items can be folded cheaply. */
export const CATEGORY_BIT: Record<AccessCategory, number> = { location: 1, vehicle_data: 2, identity: 4, events: 8 };

/**
 * Whose data one item of an answer is, and in which categories: the account when the item names
 * it, else its vehicle (resolved to the account when the counts are written). The rules per
 * operation are in server/access-log/rules.ts, and each operation names its own in operations.ts.
 */
export type AccessMark = { accountId: number | null; vehicleId: number | null; mask: number };
export type AccessRule = (item: unknown) => AccessMark | null;
