// The event types (docs/subscriptions.md), in one table: where each may be subscribed, which notification
// periods it accepts, and whether it is a condition that holds over time (a state: GEOFENCE
// INSIDE, voltage low) or something that happens at one data set (an event: a harsh brake).

export const PERIODS = ["CONTINUOUS", "STATECHANGE", "INITIALSTATE", "ONETIME"] as const;
export type NotificationPeriod = (typeof PERIODS)[number];

export type Scope = "VEHICLE" | "ACCOUNT" | "SYSTEM";

type TypeInfo = {
  /** Scopes the type may be subscribed in. */
  scopes: readonly Scope[];
  /** Allowed periods; the first is the default when none is sent. */
  periods: readonly NotificationPeriod[];
  /**
   * A state is evaluated on every data set that can say; an event fires on the sets that carry it;
   * a momentary event is an event every data set either carries or not, so it also has edges.
   */
  kind: "state" | "event" | "momentary" | "lifecycle";
};

const DATA: readonly Scope[] = ["VEHICLE", "ACCOUNT"];
const ALL_PERIODS = PERIODS;
// WAYPOINT and the lifecycle types keep the two periods they always had; a lifecycle event happens
// outside data sets, so nothing could re-arm it or say that it stopped.
const EVENT_PERIODS = ["CONTINUOUS", "ONETIME"] as const;
// A momentary event is carried by some data sets and not by others: INITIALSTATE fires on a set
// carrying it after one that did not, STATECHANGE also when a set without it follows one with it
// (docs/subscriptions.md#momentary-events). The original API accepted INITIALSTATE and ONETIME
// for these (and STATECHANGE until early 2015), and integrations still send them. CONTINUOUS stays
// the default.
const MOMENTARY_PERIODS = ["CONTINUOUS", "INITIALSTATE", "STATECHANGE", "ONETIME"] as const;

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
  VEHICLEHARSHACCEL: { scopes: DATA, periods: MOMENTARY_PERIODS, kind: "momentary" },
  VEHICLEHARSHDECEL: { scopes: DATA, periods: MOMENTARY_PERIODS, kind: "momentary" },
  VEHICLEHARSHRIGHT: { scopes: DATA, periods: MOMENTARY_PERIODS, kind: "momentary" },
  VEHICLEHARSHLEFT: { scopes: DATA, periods: MOMENTARY_PERIODS, kind: "momentary" },
  VEHICLEIMPACT: { scopes: DATA, periods: MOMENTARY_PERIODS, kind: "momentary" },
  VEHICLECONNECTED: { scopes: DATA, periods: MOMENTARY_PERIODS, kind: "momentary" },
  VEHICLEDISCONNECTED: { scopes: DATA, periods: MOMENTARY_PERIODS, kind: "momentary" },
  VEHICLETOWED: { scopes: DATA, periods: MOMENTARY_PERIODS, kind: "momentary" },
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

// What each period means, for conditions that hold over time and for momentary events
// (docs/subscriptions.md#periods): the OpenAPI description of notificationPeriod is built from these
// and the table above, so it says what the code does.
const MEANING: Record<NotificationPeriod, string> = {
  CONTINUOUS: "every data set that meets the criteria (for a momentary event: every data set carrying it)",
  STATECHANGE:
    "when the criteria become met and when they stop being met, with the recorded values (for a " +
    "momentary event: on a data set carrying it after one without it, and on a data set without it after " +
    "one with it, recorded with recordedEvent false)",
  INITIALSTATE:
    "when the criteria become met; re-arms once they stop (for a momentary event: on a data set carrying " +
    "it after one without it; `INITIAL` is an accepted alias)",
  ONETIME:
    "the first time the criteria are met (for a momentary event: the first data set carrying it), then the subscription is deleted",
};

/** The OpenAPI description of notificationPeriod: the meanings, and the periods of every type. */
export function periodsDescription(): string {
  const meanings = PERIODS.map((p) => `${p}: ${MEANING[p]}.`).join(" ");
  const byType = EVENT_TYPE_NAMES.map((t) => `${t}: ${EVENT_TYPES[t].periods.join(", ")}`).join("; ");
  return (
    `${meanings} Periods per type (the first is the default when none is sent; any other answers 400 ` +
    `with a field error on notificationPeriod): ${byType}.`
  );
}
