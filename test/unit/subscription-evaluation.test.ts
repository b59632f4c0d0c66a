import { describe, expect, it } from "vitest";
import { recordedValues } from "@/server/notifications/conditions";
import { evaluateSubscriptions, type LiveSubscription } from "@/server/notifications/evaluate";
import { factsOf } from "@/server/notifications/facts";
import type { StoredCriteria } from "@/server/subscriptions/criteria";
import {
  EVENT_TYPES,
  DATA_EVENT_TYPES,
  PERIODS,
  type EventType,
  type NotificationPeriod,
} from "@/common/subscriptions/event-types";
import type { DataSetInput } from "@/server/telemetry/schemas";

// Every data-event type under every period it allows, over scripted sequences: criteria met,
// met, met, not met; and met, not met, met (re-arming).

type Datum = { key: string; value: string };
const set = (at: Date, ignitionStatus: DataSetInput["ignitionStatus"], datum: Datum[]): DataSetInput => ({
  timestamp: at,
  ignitionStatus,
  datum,
  deviceId: undefined,
  vin: undefined,
});

// Step i happens on day i: at 20:00 UTC when the criteria should be met, 12:00 when not, so
// timestamps always increase and TIMEOFDAY can use the clock as its condition.
const stepTime = (i: number, met: boolean) => new Date(Date.UTC(2026, 9, 5 + i, met ? 20 : 12, 0));

type Scenario = { criteria?: StoredCriteria; met: (at: Date) => DataSetInput; unmet: (at: Date) => DataSetInput };
const wp = (lat: number, lon: number): Datum => ({ key: "GEN_WAYPOINT", value: `${lat},${lon}` });
const event = (key: string): Scenario => ({
  met: (at) => set(at, "RUNNING", [wp(40, -83), { key, value: "true" }]),
  unmet: (at) => set(at, "RUNNING", [wp(40, -83)]),
});

const scenarios: Record<
  Exclude<EventType, "VEHICLECREATED" | "VEHICLEDELETED" | "AUTHORIZATIONSTATUS" | "VEHICLETOWED">,
  Scenario
> = {
  WAYPOINT: {
    met: (at) => set(at, "RUNNING", [wp(40, -83)]),
    unmet: (at) => set(at, "RUNNING", [{ key: "GEN_SPEED", value: "30" }]),
  },
  GEOFENCE: {
    criteria: {
      origin: { latitude: 40, longitude: -83 },
      radius: 1,
      boundaryCondition: "INSIDE",
      ignitionStatus: "ANY",
    },
    met: (at) => set(at, "RUNNING", [wp(40.005, -83)]),
    unmet: (at) => set(at, "RUNNING", [wp(40.1, -83)]),
  },
  IGNITIONSTATUS: { met: (at) => set(at, "RUNNING", []), unmet: (at) => set(at, "OFF", []) },
  LOWBATTERY: {
    met: (at) => set(at, "OFF", [{ key: "GEN_VOLTAGE", value: "11.6" }]),
    unmet: (at) => set(at, "OFF", [{ key: "GEN_VOLTAGE", value: "12.6" }]),
  },
  NUMERICDATAKEY: {
    criteria: { dataKey: "GEN_SPEED", thresholdValue: 70, relationship: "ABOVE" },
    met: (at) => set(at, "RUNNING", [{ key: "GEN_SPEED", value: "81.5" }]),
    unmet: (at) => set(at, "RUNNING", [{ key: "GEN_SPEED", value: "70" }]),
  },
  TIMEOFDAY: {
    criteria: {
      startTime: "08:00",
      endTime: "18:00",
      daysOfWeek: ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"],
      ignitionStatus: "ON",
    },
    met: (at) => set(at, "RUNNING", [wp(40, -83)]),
    unmet: (at) => set(at, "RUNNING", [wp(40, -83)]),
  },
  TROUBLECODE: {
    met: (at) => set(at, "RUNNING", [{ key: "GEN_DTC", value: "P0300" }]),
    unmet: (at) => set(at, "RUNNING", []),
  },
  VEHICLEHARSHACCEL: event("VEHICLE_EVENT_HARSH_ACCEL"),
  VEHICLEHARSHDECEL: event("VEHICLE_EVENT_HARSH_DECEL"),
  VEHICLEHARSHRIGHT: event("VEHICLE_EVENT_HARSH_RIGHT"),
  VEHICLEHARSHLEFT: event("VEHICLE_EVENT_HARSH_LEFT"),
  VEHICLEIMPACT: event("VEHICLE_EVENT_HARSH_IMPACT"),
  VEHICLECONNECTED: event("VEHICLE_EVENT_CONNECTED"),
  VEHICLEDISCONNECTED: event("VEHICLE_EVENT_DISCONNECTED"),
};

const subscription = (
  type: EventType,
  period: NotificationPeriod,
  criteria: StoredCriteria = {},
  extra: Partial<LiveSubscription> = {},
): LiveSubscription => ({
  id: 1,
  appId: 1,
  clientId: "wl_sbx_test",
  type,
  period,
  minimumTime: 0,
  criteria,
  timeZone: null,
  state: null,
  ...extra,
});

function fired(sub: LiveSubscription, sets: DataSetInput[], running = false, late: boolean[] = []) {
  const { notifications } = evaluateSubscriptions(
    [sub],
    sets.map((s, i) => ({ facts: factsOf(s), late: late[i] ?? false })),
    { running },
  );
  return notifications.map((n) => n.set);
}

const CHART = [true, true, true, false];
const REARM = [true, false, true];
const expected: Record<NotificationPeriod, { chart: number[]; rearm: number[] }> = {
  CONTINUOUS: { chart: [0, 1, 2], rearm: [0, 2] },
  STATECHANGE: { chart: [0, 3], rearm: [0, 1, 2] },
  INITIALSTATE: { chart: [0], rearm: [0, 2] },
  ONETIME: { chart: [0], rearm: [0] },
};

// A polygon fence is a GEOFENCE too: the same periods over the same chart. Met in the base of a
// concave U around (40, -83), not met in its notch, which a circle or a bounding box would count in.
const U_FENCE = [
  { latitude: 39.99, longitude: -83.01 },
  { latitude: 39.99, longitude: -82.98 },
  { latitude: 40.02, longitude: -82.98 },
  { latitude: 40.02, longitude: -82.99 },
  { latitude: 40, longitude: -82.99 },
  { latitude: 40, longitude: -83 },
  { latitude: 40.02, longitude: -83 },
  { latitude: 40.02, longitude: -83.01 },
];
const polygonFence: Scenario = {
  criteria: { polygon: U_FENCE, boundaryCondition: "INSIDE", ignitionStatus: "ANY" },
  met: (at) => set(at, "RUNNING", [wp(39.995, -82.995)]),
  unmet: (at) => set(at, "RUNNING", [wp(40.01, -82.995)]),
};

describe("every type × every allowed period over the scripted chart", () => {
  const cases = [
    ...Object.entries(scenarios).map(([type, scenario]) => ({ name: type, type: type as EventType, scenario })),
    { name: "GEOFENCE (polygon)", type: "GEOFENCE" as EventType, scenario: polygonFence },
  ].flatMap((c) => EVENT_TYPES[c.type].periods.map((period) => ({ ...c, period })));
  it.each(cases)("$name $period", ({ type, period, scenario }) => {
    const run = (pattern: boolean[]) =>
      pattern.map((met, i) => (met ? scenario.met(stepTime(i, true)) : scenario.unmet(stepTime(i, false))));
    expect(fired(subscription(type, period, scenario.criteria), run(CHART)), "met, met, met, not met").toEqual(
      expected[period].chart,
    );
    expect(fired(subscription(type, period, scenario.criteria), run(REARM)), "met, not met, met").toEqual(
      expected[period].rearm,
    );
  });

  it("covers every data-event type", () => {
    expect([...Object.keys(scenarios), "VEHICLETOWED"].sort()).toEqual([...DATA_EVENT_TYPES].sort());
  });
});

describe("type details", () => {
  const t = (minute: number) => new Date(Date.UTC(2026, 9, 5, 10, minute));

  it("records the values docs/subscriptions.md#notifications names, per type", () => {
    const sets = [
      set(t(0), "RUNNING", [
        wp(40.005, -83),
        { key: "GEN_VOLTAGE", value: "11.9" },
        { key: "GEN_SPEED", value: "75" },
        { key: "GEN_DTC", value: "P0300" },
        { key: "GEN_DTC", value: "P0171" },
      ]),
    ];
    const evaluate = (type: EventType, criteria: StoredCriteria = {}) =>
      evaluateSubscriptions([subscription(type, "CONTINUOUS", criteria)], [{ facts: factsOf(sets[0]!), late: false }], {
        running: false,
      }).notifications[0]!.body;
    const recordedWaypoint = { timestamp: "20261005T100000+0000", latitude: 40.005, longitude: -83 };
    expect(evaluate("WAYPOINT")).toEqual({
      minimumTime: 0,
      notificationPeriod: "CONTINUOUS",
      creatorClientId: "wl_sbx_test",
      recordedWaypoint,
    });
    expect(
      evaluate("GEOFENCE", {
        origin: { latitude: 40, longitude: -83 },
        radius: 1,
        boundaryCondition: "INSIDE",
        ignitionStatus: "ANY",
      }),
    ).toMatchObject({ recordedWaypoint, recordedBoundaryCondition: "INSIDE" });
    expect(evaluate("LOWBATTERY")).toMatchObject({ thresholdVoltage: 12, recordedVoltage: 11.9 });
    expect(
      evaluate("NUMERICDATAKEY", { dataKey: "GEN_SPEED", thresholdValue: 70, relationship: "ABOVE" }),
    ).toMatchObject({ dataKey: "GEN_SPEED", thresholdValue: 70, relationship: "ABOVE", recordedValue: 75 });
    expect(evaluate("TROUBLECODE")).toMatchObject({ troubleCodes: ["P0300", "P0171"] });
    const ignition = evaluateSubscriptions(
      [subscription("IGNITIONSTATUS", "STATECHANGE")],
      [{ facts: factsOf(sets[0]!), late: false }],
      { running: false },
    ).notifications[0]!.body;
    expect(ignition).toMatchObject({ ignitionStatus: "ON" });
  });

  it("GEOFENCE: great-circle miles, OUTSIDE fences, and the ignition filter skips sets it does not cover", () => {
    const fence = {
      origin: { latitude: 40, longitude: -83 },
      radius: 1,
      boundaryCondition: "OUTSIDE" as const,
      ignitionStatus: "ON" as const,
    };
    // 0.0144° of latitude is 0.995 miles; 0.0146° is 1.009 miles.
    const sets = [
      set(t(0), "RUNNING", [wp(40.0144, -83)]),
      set(t(1), "RUNNING", [wp(40.0146, -83)]),
      set(t(2), "OFF", [wp(41, -83)]),
      set(t(3), "ON", [wp(40, -83)]),
    ];
    expect(fired(subscription("GEOFENCE", "STATECHANGE", fence), sets)).toEqual([1, 3]);
    expect(fired(subscription("GEOFENCE", "CONTINUOUS", { ...fence, ignitionStatus: "OFF" }), sets)).toEqual([2]);
    // A set without a position says nothing about a fence.
    expect(
      fired(subscription("GEOFENCE", "STATECHANGE", { ...fence, ignitionStatus: "ANY" }), [
        set(t(0), "RUNNING", [wp(41, -83)]),
        set(t(1), "RUNNING", []),
      ]),
    ).toEqual([0]);
  });

  it("GEOFENCE with a polygon: over the antimeridian, OUTSIDE, its edge inside, recorded like a circle", () => {
    // A strip of Fiji from lon 179.9 to -179.9 (0.2° wide, not 359.8°).
    const polygon = [
      { latitude: -16.8, longitude: 179.9 },
      { latitude: -16.8, longitude: -179.9 },
      { latitude: -16.6, longitude: -179.9 },
      { latitude: -16.6, longitude: 179.9 },
    ];
    const fence = { polygon, boundaryCondition: "OUTSIDE" as const, ignitionStatus: "ANY" as const };
    const sets = [
      set(t(0), "RUNNING", [wp(-16.7, 179.95)]), // inside, west of 180
      set(t(1), "RUNNING", [wp(-16.7, -179.95)]), // inside, east of it
      set(t(2), "RUNNING", [wp(-16.7, 0)]), // the far side of the globe: outside
      set(t(3), "RUNNING", [wp(-16.8, 180)]), // on the southern edge: inside
      set(t(4), "RUNNING", [wp(-16.5, 179.95)]), // north of it: outside
    ];
    expect(fired(subscription("GEOFENCE", "CONTINUOUS", fence), sets)).toEqual([2, 4]);
    expect(fired(subscription("GEOFENCE", "STATECHANGE", fence), sets)).toEqual([2, 3, 4]);
    const { notifications } = evaluateSubscriptions(
      [subscription("GEOFENCE", "STATECHANGE", { ...fence, boundaryCondition: "INSIDE" })],
      sets.map((s) => ({ facts: factsOf(s), late: false })),
      { running: false },
    );
    expect(notifications.map((n) => [n.set, n.body.recordedBoundaryCondition])).toEqual([
      [0, "INSIDE"],
      [2, "OUTSIDE"],
      [3, "INSIDE"],
      [4, "OUTSIDE"],
    ]);
    // A test notification of a polygon fence has the circle's members, the recorded ones null.
    expect(recordedValues("GEOFENCE", fence, null)).toEqual({
      recordedWaypoint: null,
      recordedBoundaryCondition: null,
    });
  });

  it("IGNITIONSTATUS starts from the vehicle's ignition; a RUNNING after OFF counts as ON", () => {
    const sets = [set(t(0), "RUNNING", []), set(t(1), "OFF", []), set(t(2), "RUNNING", [])];
    expect(fired(subscription("IGNITIONSTATUS", "STATECHANGE"), sets, true)).toEqual([1, 2]);
    expect(fired(subscription("IGNITIONSTATUS", "STATECHANGE"), sets, false)).toEqual([0, 1, 2]);
  });

  it("TIMEOFDAY uses the account's time zone, its days, and windows over midnight", () => {
    const days: ("MON" | "TUE" | "WED" | "THU" | "FRI")[] = ["MON", "TUE", "WED", "THU", "FRI"];
    const criteria: StoredCriteria = { startTime: "07:00", endTime: "19:00", daysOfWeek: days, ignitionStatus: "ON" };
    // 2026-10-05 is a Monday. 22:30 UTC is 18:30 in New York (inside), 23:30 UTC is 19:30 (outside).
    const ny = (sets: DataSetInput[]) =>
      fired(subscription("TIMEOFDAY", "CONTINUOUS", criteria, { timeZone: "America/New_York" }), sets);
    expect(
      ny([
        set(new Date(Date.UTC(2026, 9, 5, 22, 30)), "RUNNING", []),
        set(new Date(Date.UTC(2026, 9, 5, 23, 30)), "RUNNING", []),
      ]),
    ).toEqual([1]);
    // Saturday is not an allowed day: driving at noon is outside; parked is not driving.
    expect(
      ny([
        set(new Date(Date.UTC(2026, 9, 10, 16, 0)), "RUNNING", []),
        set(new Date(Date.UTC(2026, 9, 10, 16, 1)), "OFF", []),
      ]),
    ).toEqual([0]);
    const night: StoredCriteria = { startTime: "22:00", endTime: "06:00", daysOfWeek: ["MON"], ignitionStatus: "ANY" };
    const utc = (d: number, h: number) => set(new Date(Date.UTC(2026, 9, d, h, 0)), "RUNNING", []);
    // Monday 23:00 and Tuesday 05:00 are inside Monday's night window; Tuesday 23:00 is not.
    expect(fired(subscription("TIMEOFDAY", "CONTINUOUS", night), [utc(5, 23), utc(6, 5), utc(6, 23)])).toEqual([2]);
  });

  it("VEHICLETOWED: moved about 1,500 m with the ignition off, or reported by the device", () => {
    const sub = subscription("VEHICLETOWED", "CONTINUOUS");
    const off = (minute: number, lat: number) => set(t(minute), "OFF", [wp(lat, -83)]);
    // 0.009° of latitude is about 1,000 m; 0.0145° about 1,610 m.
    expect(fired(sub, [off(0, 40), off(1, 40.009), off(2, 40.0145), off(3, 40.015), off(4, 40.03)])).toEqual([2, 4]);
    // Driving it there is not towing.
    expect(fired(sub, [off(0, 40), set(t(1), "RUNNING", [wp(40.05, -83)]), off(2, 40.05)])).toEqual([]);
    expect(fired(sub, [set(t(0), "OFF", [{ key: "VEHICLE_EVENT_TOWED", value: "1" }])])).toEqual([0]);
    expect(fired(sub, [set(t(0), "OFF", [{ key: "VEHICLE_EVENT_TOWED", value: "false" }])])).toEqual([]);
  });

  it("keeps the anchor in the state between batches", () => {
    const sub = subscription("VEHICLETOWED", "CONTINUOUS");
    const first = evaluateSubscriptions([sub], [{ facts: factsOf(set(t(0), "OFF", [wp(40, -83)])), late: false }], {
      running: false,
    });
    const state = first.states.get(1)!;
    expect(state.anchor).toEqual({ latitude: 40, longitude: -83 });
    const second = evaluateSubscriptions(
      [{ ...sub, state }],
      [{ facts: factsOf(set(t(5), "OFF", [wp(40.02, -83)])), late: false }],
      { running: false },
    );
    expect(second.notifications).toHaveLength(1);
  });

  it("minimumTime counts minutes of event time from the last notification, per subscription state", () => {
    const sets = Array.from({ length: 8 }, (_, i) => set(t(i * 2), "RUNNING", [wp(40, -83)]));
    expect(fired(subscription("WAYPOINT", "CONTINUOUS", {}, { minimumTime: 5 }), sets)).toEqual([0, 3, 6]);
    const notifiedAt = t(-1);
    expect(
      fired(
        subscription(
          "WAYPOINT",
          "CONTINUOUS",
          {},
          { minimumTime: 5, state: { met: true, evaluatedAt: notifiedAt, notifiedAt, anchor: null } },
        ),
        sets,
      ),
    ).toEqual([2, 5]);
  });

  it("a state carried over from the previous batch decides the edges of this one", () => {
    const state = { met: true, evaluatedAt: t(0), notifiedAt: t(0), anchor: null };
    const low = (m: number, v: string) => set(t(m), "OFF", [{ key: "GEN_VOLTAGE", value: v }]);
    expect(
      fired(subscription("LOWBATTERY", "INITIALSTATE", {}, { state }), [
        low(1, "11.0"),
        low(2, "12.5"),
        low(3, "11.0"),
      ]),
    ).toEqual([2]);
    expect(fired(subscription("LOWBATTERY", "STATECHANGE", {}, { state }), [low(1, "11.0"), low(2, "12.5")])).toEqual([
      1,
    ]);
  });

  it("late sets fire events but never change a state, nor fire under a minimumTime", () => {
    const late = [false, true, false];
    const sets = [
      set(t(5), "RUNNING", [wp(40, -83)]),
      set(t(1), "RUNNING", [wp(40, -83), { key: "VEHICLE_EVENT_HARSH_DECEL", value: "true" }]),
      set(t(6), "OFF", [wp(40, -83)]),
    ];
    expect(fired(subscription("WAYPOINT", "CONTINUOUS"), sets, false, late)).toEqual([0, 1, 2]);
    expect(fired(subscription("VEHICLEHARSHDECEL", "CONTINUOUS"), sets, false, late)).toEqual([1]);
    expect(fired(subscription("IGNITIONSTATUS", "STATECHANGE"), sets, false, late)).toEqual([0, 2]);
    expect(fired(subscription("WAYPOINT", "CONTINUOUS", {}, { minimumTime: 1 }), sets, false, late)).toEqual([0, 2]);
  });

  it("plain events keep no state; state types and minimumTime do", () => {
    const sets = [{ facts: factsOf(set(t(0), "RUNNING", [wp(40, -83)])), late: false }];
    expect(evaluateSubscriptions([subscription("WAYPOINT", "CONTINUOUS")], sets, { running: false }).states.size).toBe(
      0,
    );
    expect(
      evaluateSubscriptions([subscription("WAYPOINT", "CONTINUOUS", {}, { minimumTime: 1 })], sets, { running: false })
        .states.size,
    ).toBe(1);
    expect(
      evaluateSubscriptions([subscription("IGNITIONSTATUS", "STATECHANGE")], sets, { running: false }).states.get(1),
    ).toMatchObject({ met: true });
  });
});

// The momentary events under each of the four periods (docs/subscriptions.md#momentary-events), over
// runs of data sets that carry the event (E) or not (_): E E _ E _ _ E. Listed here, not read from
// the table, so a period the table drops fails here.
describe("momentary events × every period", () => {
  const MOMENTARY: [EventType, string][] = [
    ["VEHICLEHARSHACCEL", "VEHICLE_EVENT_HARSH_ACCEL"],
    ["VEHICLEHARSHDECEL", "VEHICLE_EVENT_HARSH_DECEL"],
    ["VEHICLEHARSHRIGHT", "VEHICLE_EVENT_HARSH_RIGHT"],
    ["VEHICLEHARSHLEFT", "VEHICLE_EVENT_HARSH_LEFT"],
    ["VEHICLEIMPACT", "VEHICLE_EVENT_HARSH_IMPACT"],
    ["VEHICLECONNECTED", "VEHICLE_EVENT_CONNECTED"],
    ["VEHICLEDISCONNECTED", "VEHICLE_EVENT_DISCONNECTED"],
    ["VEHICLETOWED", "VEHICLE_EVENT_TOWED"],
  ];
  const RUNS = [true, true, false, true, false, false, true];
  // Which sets notify, and what each records as recordedEvent.
  const EXPECTED: Record<NotificationPeriod, [number, boolean][]> = {
    CONTINUOUS: [
      [0, true],
      [1, true],
      [3, true],
      [6, true],
    ],
    INITIALSTATE: [
      [0, true],
      [3, true],
      [6, true],
    ],
    STATECHANGE: [
      [0, true],
      [2, false],
      [3, true],
      [4, false],
      [6, true],
    ],
    ONETIME: [[0, true]],
  };
  const at = (i: number) => new Date(Date.UTC(2026, 9, 5, 10, i));
  // The towed car stays parked in one place, so only the reported event can say "towed".
  const runOf = (key: string, pattern: boolean[]) =>
    pattern.map((carries, i) =>
      set(at(i), key === "VEHICLE_EVENT_TOWED" ? "OFF" : "RUNNING", [
        wp(40, -83),
        ...(carries ? [{ key, value: "true" }] : []),
      ]),
    );

  const cases = MOMENTARY.flatMap(([type, key]) => PERIODS.map((period) => ({ type, key, period })));
  it.each(cases)("$type $period: E E _ E _ _ E", ({ type, key, period }) => {
    expect(EVENT_TYPES[type].periods).toContain(period);
    const { notifications, states } = evaluateSubscriptions(
      [subscription(type, period)],
      runOf(key, RUNS).map((s) => ({ facts: factsOf(s), late: false })),
      { running: false },
    );
    expect(notifications.map((n) => [n.set, n.body.recordedEvent])).toEqual(EXPECTED[period]);
    for (const n of notifications)
      expect(n.body).toMatchObject({ notificationPeriod: period, recordedWaypoint: { latitude: 40, longitude: -83 } });
    expect(notifications.every((n) => n.onetime === (period === "ONETIME"))).toBe(true);
    // The edge periods remember the last set, so the next batch continues from it.
    if (period === "INITIALSTATE" || period === "STATECHANGE")
      expect(states.get(1)).toMatchObject({ met: true, evaluatedAt: at(6) });
  });

  it.each(MOMENTARY)("%s: INITIALSTATE and STATECHANGE carry the edge over to the next batch", (type, key) => {
    const first = evaluateSubscriptions(
      [subscription(type, "INITIALSTATE")],
      runOf(key, [false, true]).map((s) => ({ facts: factsOf(s), late: false })),
      { running: false },
    );
    const state = first.states.get(1)!;
    expect(state).toMatchObject({ met: true });
    const next = (period: NotificationPeriod, pattern: boolean[]) =>
      evaluateSubscriptions(
        [subscription(type, period, {}, { state })],
        runOf(key, pattern).map((s, i) => ({ facts: factsOf({ ...s, timestamp: at(10 + i) }), late: false })),
        { running: false },
      ).notifications.map((n) => [n.set, n.body.recordedEvent]);
    // Still carried by the next batch's first set: no new start; a set without it re-arms.
    expect(next("INITIALSTATE", [true, true, false, true])).toEqual([[3, true]]);
    // A set without it first: it stopped arriving.
    expect(next("STATECHANGE", [false, true])).toEqual([
      [0, false],
      [1, true],
    ]);
  });

  it("an event reported as false, 0, no or off is a set without it", () => {
    const sets = ["true", "false", "1", "0", "yes", "no", "1", "off"].map((value, i) =>
      set(at(i), "RUNNING", [{ key: "VEHICLE_EVENT_HARSH_ACCEL", value }]),
    );
    expect(fired(subscription("VEHICLEHARSHACCEL", "INITIALSTATE"), sets)).toEqual([0, 2, 4, 6]);
    expect(fired(subscription("VEHICLEHARSHACCEL", "STATECHANGE"), sets)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it("late sets notify under CONTINUOUS and ONETIME, never under INITIALSTATE or STATECHANGE", () => {
    const late = [false, true, false];
    const sets = [
      set(at(5), "RUNNING", []),
      set(at(1), "RUNNING", [{ key: "VEHICLE_EVENT_HARSH_ACCEL", value: "true" }]),
      set(at(6), "RUNNING", []),
    ];
    expect(fired(subscription("VEHICLEHARSHACCEL", "CONTINUOUS"), sets, false, late)).toEqual([1]);
    expect(fired(subscription("VEHICLEHARSHACCEL", "ONETIME"), sets, false, late)).toEqual([1]);
    expect(fired(subscription("VEHICLEHARSHACCEL", "INITIALSTATE"), sets, false, late)).toEqual([]);
    expect(fired(subscription("VEHICLEHARSHACCEL", "STATECHANGE"), sets, false, late)).toEqual([]);
  });

  it("VEHICLETOWED by distance: each 1,500 m parked is a set carrying the tow; driving or staying put ends the run", () => {
    const off = (minute: number, lat: number) => set(at(minute), "OFF", [wp(lat, -83)]);
    // 0.0145° of latitude is about 1,610 m. Parked, towed twice in a row, stays put, a set without a
    // position (says nothing), towed again, then driven.
    const sets = [
      off(0, 40),
      off(1, 40.0145),
      off(2, 40.029),
      off(3, 40.029),
      set(at(4), "OFF", []),
      off(5, 40.044),
      set(at(6), "RUNNING", [wp(40.044, -83)]),
    ];
    const run = (period: NotificationPeriod) =>
      evaluateSubscriptions(
        [subscription("VEHICLETOWED", period)],
        sets.map((s) => ({ facts: factsOf(s), late: false })),
        { running: false },
      ).notifications.map((n) => [n.set, n.body.recordedEvent]);
    expect(run("CONTINUOUS")).toEqual([
      [1, true],
      [2, true],
      [5, true],
    ]);
    expect(run("INITIALSTATE")).toEqual([
      [1, true],
      [5, true],
    ]);
    expect(run("STATECHANGE")).toEqual([
      [1, true],
      [3, false],
      [5, true],
      [6, false],
    ]);
    expect(run("ONETIME")).toEqual([[1, true]]);
  });

  it("a state row left by an earlier period is kept current under CONTINUOUS", () => {
    const state = { met: true, evaluatedAt: at(0), notifiedAt: at(0), anchor: null };
    const sets = [{ facts: factsOf(set(at(1), "RUNNING", [])), late: false }];
    expect(
      evaluateSubscriptions([subscription("VEHICLEHARSHACCEL", "CONTINUOUS", {}, { state })], sets, {
        running: false,
      }).states.get(1),
    ).toMatchObject({ met: false, evaluatedAt: at(1) });
    expect(
      evaluateSubscriptions([subscription("VEHICLEHARSHACCEL", "CONTINUOUS")], sets, { running: false }).states.size,
    ).toBe(0);
  });

  it("the account and system types and WAYPOINT keep CONTINUOUS and ONETIME only; the momentary ones default to CONTINUOUS", () => {
    for (const type of ["WAYPOINT", "VEHICLECREATED", "VEHICLEDELETED", "AUTHORIZATIONSTATUS"] as const)
      expect(EVENT_TYPES[type].periods).toEqual(["CONTINUOUS", "ONETIME"]);
    for (const [type] of MOMENTARY) expect(EVENT_TYPES[type].periods[0]).toBe("CONTINUOUS");
  });
});

describe("the OpenAPI description of notificationPeriod", () => {
  it("says what each period means for a momentary event and lists every type's periods, in the request and the response", async () => {
    const { openApiDocument } = await import("@/server/openapi/document");
    const text = JSON.stringify(openApiDocument("sandbox", "https://wayline.example"));
    const descriptions = [...text.matchAll(/"notificationPeriod":\{[^}]*?"description":"((?:[^"\\]|\\.)*)"/g)].map(
      (m) => m[1]!,
    );
    expect(descriptions.length).toBeGreaterThanOrEqual(2);
    for (const d of descriptions) {
      expect(d).toContain("VEHICLEHARSHACCEL: CONTINUOUS, INITIALSTATE, STATECHANGE, ONETIME");
      expect(d).toContain("WAYPOINT: CONTINUOUS, ONETIME");
      expect(d).toContain("IGNITIONSTATUS: STATECHANGE, INITIALSTATE, ONETIME");
      expect(d).toContain("recordedEvent false");
      expect(d).toContain("400");
    }
  });
});

describe("a test notification's recorded values", () => {
  // What criteria carry into the body as they are; every other recorded member is null without a set.
  const FROM_CRITERIA = ["thresholdVoltage", "dataKey", "thresholdValue", "relationship"];
  const criteria: StoredCriteria = {
    dataKey: "GEN_SPEED",
    thresholdValue: 70,
    relationship: "ABOVE",
    origin: { latitude: 40, longitude: -83 },
    radius: 1,
  };
  const facts = factsOf(
    set(new Date(Date.UTC(2026, 9, 5, 20)), "RUNNING", [
      wp(40, -83),
      { key: "GEN_VOLTAGE", value: "11.9" },
      { key: "GEN_SPEED", value: "75" },
      { key: "GEN_DTC", value: "P0420" },
    ]),
  );

  it.each(DATA_EVENT_TYPES)("%s: the members a real one records, each recorded value null", (type) => {
    const real = recordedValues(type, criteria, { facts, met: true });
    const test = recordedValues(type, criteria, null);
    expect(Object.keys(test).sort()).toEqual(Object.keys(real).sort());
    for (const [member, value] of Object.entries(test))
      expect(value, member).toEqual(FROM_CRITERIA.includes(member) ? real[member] : null);
    expect(test).toHaveProperty("recordedWaypoint", null);
  });
});
