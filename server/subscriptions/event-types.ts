// The event types (docs/subscriptions.md), in one table: where each may be subscribed, which notification
// periods make sense for it, and whether it is a condition that holds over time (a state: GEOFENCE
// INSIDE, voltage low) or something that happens at one data set (an event: a harsh brake).

export const PERIODS = ["CONTINUOUS", "STATECHANGE", "INITIALSTATE", "ONETIME"] as const;
export type NotificationPeriod = (typeof PERIODS)[number];

export type Scope = "VEHICLE" | "ACCOUNT" | "SYSTEM";

type TypeInfo = {
  /** Scopes the type may be subscribed in. */
  scopes: readonly Scope[];
  /** Allowed periods; the first is the default when none is sent. */
  periods: readonly NotificationPeriod[];
  /** A state is evaluated on every data set that can say; an event fires on the sets that carry it. */
  kind: "state" | "event" | "lifecycle";
};

const DATA: readonly Scope[] = ["VEHICLE", "ACCOUNT"];
const ALL_PERIODS = PERIODS;
// An event has no "stops being met" edge, so STATECHANGE and INITIALSTATE would mean nothing.
const EVENT_PERIODS = ["CONTINUOUS", "ONETIME"] as const;

export const EVENT_TYPES = {
  WAYPOINT: { scopes: DATA, periods: EVENT_PERIODS, kind: "event" },
  GEOFENCE: { scopes: DATA, periods: ALL_PERIODS, kind: "state" },
  // The ignition is either on or off: every data set repeats it, so CONTINUOUS is refused.
  IGNITIONSTATUS: { scopes: DATA, periods: ["STATECHANGE", "INITIALSTATE", "ONETIME"], kind: "state" },
  LOWBATTERY: { scopes: DATA, periods: ALL_PERIODS, kind: "state" },
  NUMERICDATAKEY: { scopes: DATA, periods: ALL_PERIODS, kind: "state" },
  TIMEOFDAY: { scopes: DATA, periods: ALL_PERIODS, kind: "state" },
  // A trouble code stays reported while it persists: INITIALSTATE says "a new problem" once.
  TROUBLECODE: { scopes: DATA, periods: ALL_PERIODS, kind: "state" },
  VEHICLEHARSHACCEL: { scopes: DATA, periods: EVENT_PERIODS, kind: "event" },
  VEHICLEHARSHDECEL: { scopes: DATA, periods: EVENT_PERIODS, kind: "event" },
  VEHICLEHARSHRIGHT: { scopes: DATA, periods: EVENT_PERIODS, kind: "event" },
  VEHICLEHARSHLEFT: { scopes: DATA, periods: EVENT_PERIODS, kind: "event" },
  VEHICLEIMPACT: { scopes: DATA, periods: EVENT_PERIODS, kind: "event" },
  VEHICLECONNECTED: { scopes: DATA, periods: EVENT_PERIODS, kind: "event" },
  VEHICLEDISCONNECTED: { scopes: DATA, periods: EVENT_PERIODS, kind: "event" },
  VEHICLETOWED: { scopes: DATA, periods: EVENT_PERIODS, kind: "event" },
  VEHICLECREATED: { scopes: ["ACCOUNT"], periods: EVENT_PERIODS, kind: "lifecycle" },
  VEHICLEDELETED: { scopes: ["ACCOUNT"], periods: EVENT_PERIODS, kind: "lifecycle" },
  AUTHORIZATIONSTATUS: { scopes: ["SYSTEM"], periods: EVENT_PERIODS, kind: "lifecycle" },
} as const satisfies Record<string, TypeInfo>;

export type EventType = keyof typeof EVENT_TYPES;
export const EVENT_TYPE_NAMES = Object.keys(EVENT_TYPES) as EventType[];

/** Types evaluated on data sets (everything but the lifecycle ones). */
export const DATA_EVENT_TYPES = EVENT_TYPE_NAMES.filter((t) => EVENT_TYPES[t].kind !== "lifecycle");

/** A path segment naming a type, in any letter case (docs/api.md#environments-and-base-paths); null if it names none. */
export function eventTypeOf(segment: string): EventType | null {
  const upper = segment.toUpperCase();
  return upper in EVENT_TYPES ? (upper as EventType) : null;
}

export const typeInfo = (type: EventType): TypeInfo => EVENT_TYPES[type];
