import { describe, expect, it } from "vitest";
import type { LiveSubscription } from "@/server/notifications/evaluate";
import { answerOf, planWrite, readAfter } from "@/server/telemetry/ingest/plan";
import type { IngestRead } from "@/server/telemetry/ingest/read";
import type { DataSetInput } from "@/server/telemetry/schemas";

// Ingest's plan is pure: from a read and the posted sets, the write; from the write's answer, the
// API's answer and the read the next post may start from. The statements themselves are tested
// against PostgreSQL (test/integration/shared/ingest-version.test.ts, write-groups.test.ts).

const t = (minute: number) => new Date(Date.UTC(2026, 0, 1, 8, minute));
const set = (
  minute: number,
  ignitionStatus: DataSetInput["ignitionStatus"],
  datum: { key: string; value: string; timestamp?: Date }[] = [],
  extra: Partial<DataSetInput> = {},
): DataSetInput => ({
  timestamp: t(minute),
  ignitionStatus,
  datum: datum.map((d) => ({ timestamp: t(minute), ...d })),
  ...extra,
});
const read = (over: Partial<IngestRead> = {}): IngestRead => ({
  vehicle: { id: 7, accountId: 3, locationPaused: false },
  version: "1001",
  state: { mileage: 100, running: false, lastRunningAt: null, lastDataAt: null, lastWaypoint: null, vin: null },
  openTrip: null,
  existing: new Map(),
  subscriptions: [],
  subscriptionsVersion: "/UTC",
  alertRules: null,
  ...over,
});
const waypoints: LiveSubscription = {
  id: 11,
  appId: 5,
  clientId: "client",
  type: "WAYPOINT",
  period: "CONTINUOUS",
  minimumTime: 0,
  criteria: {},
  timeZone: null,
  state: null,
};

describe("planWrite", () => {
  it("answers sets stored at a posted time as duplicates and writes each new time once", () => {
    const plan = planWrite(
      read({ existing: new Map([[t(1).getTime(), 501]]) }),
      [set(0, "ON"), set(1, "RUNNING"), set(2, "RUNNING"), set(2, "OFF")],
      { environment: "sandbox" },
    );
    expect(plan.duplicateIds).toEqual([501]);
    expect(plan.fresh.map((s) => [s.timestamp, s.ignitionStatus])).toEqual([
      [t(0), "ON"],
      [t(2), "RUNNING"],
    ]);
    expect(plan.write?.sets.map((s) => s.recordedAt)).toEqual([t(0).toISOString(), t(2).toISOString()]);
  });

  it("writes nothing when every set is already stored", () => {
    const plan = planWrite(read({ existing: new Map([[t(1).getTime(), 501]]) }), [set(1, "RUNNING")], {
      environment: "sandbox",
    });
    expect(plan).toMatchObject({ duplicateIds: [501], fresh: [], write: null });
  });

  it("names a trip it creates by its start time, an open one by its id, and leaves late sets to the write", () => {
    const open = {
      ref: 42,
      startTime: t(0),
      lastDataAt: t(5),
      endTime: null,
      mileage: null,
      startMileage: 100,
      start: null,
      end: null,
    };
    const plan = planWrite(
      read({ openTrip: open, state: { ...read().state, running: true, lastDataAt: t(5) } }),
      [set(3, "RUNNING"), set(6, "RUNNING"), set(7, "OFF"), set(8, "ON")],
      { environment: "sandbox" },
    );
    const sets = plan.write!.sets.map((s) => ({ tripId: s.tripId, tripStart: s.tripStart, late: s.late }));
    expect(sets).toEqual([
      { tripId: null, tripStart: null, late: true },
      { tripId: 42, tripStart: null, late: false },
      { tripId: 42, tripStart: null, late: false },
      { tripId: null, tripStart: t(8).toISOString(), late: false },
    ]);
    expect(plan.write!.updatedTrips).toEqual([expect.objectContaining({ ref: 42, endTime: t(7) })]);
    expect(plan.write!.createdTrips).toEqual([expect.objectContaining({ startTime: t(8), endTime: null })]);
    expect(plan.open).toMatchObject({ startTime: t(8) });
  });

  it("gives each point its own time only where it differs from its set's, and its position in the set", () => {
    const plan = planWrite(
      read(),
      [
        set(0, "ON", [
          { key: "GEN_SPEED", value: "0" },
          { key: "GEN_VOLTAGE", value: "13.9", timestamp: t(1) },
        ]),
      ],
      { environment: "sandbox" },
    );
    expect(plan.write!.points).toEqual([
      { set: 0, position: 0, recordedAt: null, key: "GEN_SPEED", value: "0" },
      { set: 0, position: 1, recordedAt: t(1).toISOString(), key: "GEN_VOLTAGE", value: "13.9" },
    ]);
  });

  it("spans each set's time and its points' own times, for the reads that prune by it (none: the set's time)", () => {
    const plan = planWrite(
      read(),
      [
        set(5, "ON", [
          { key: "GEN_SPEED", value: "0", timestamp: t(9) },
          { key: "GEN_VOLTAGE", value: "13.9", timestamp: t(2) },
        ]),
        set(6, "RUNNING", [{ key: "GEN_SPEED", value: "1" }]),
        set(7, "RUNNING", []),
      ],
      { environment: "sandbox" },
    );
    expect(plan.write!.sets.map((s) => [s.pointsFrom, s.pointsTo])).toEqual([
      [t(2).toISOString(), t(9).toISOString()],
      [null, null],
      [null, null],
    ]);
  });

  it("decodes a new VIN once, and evaluates the subscriptions that see the vehicle", () => {
    const plan = planWrite(
      read({ subscriptions: [waypoints] }),
      [set(0, "ON", [{ key: "GEN_WAYPOINT", value: "40,-83" }], { vin: "1HGCM82633A004352" })],
      { environment: "production" },
    );
    expect(plan.write).toMatchObject({
      environment: "production",
      vehicleId: 7,
      version: "1001",
      decoded: { make: "Honda" },
      state: { vin: "1HGCM82633A004352" },
    });
    expect(plan.write!.events).toMatchObject({
      accountId: 3,
      notifications: [{ subscriptionId: 11, set: 0, type: "WAYPOINT", onetime: false }],
    });
    expect(
      planWrite(
        read({ state: { ...read().state, vin: "1HGCM82633A004352" } }),
        [set(0, "ON", [], { vin: "1HGCM82633A004352" })],
        { environment: "sandbox" },
      ).write!.decoded,
    ).toBeNull();
  });

  it("asks the write to check what a read would have when it goes on an earlier one", () => {
    const scope = { environment: "sandbox" as const, accountId: 3 };
    expect(planWrite(read(), [set(0, "ON")], { environment: "sandbox", unread: { scope } }).write!.unread).toEqual({
      scope,
      subscriptionsVersion: "/UTC",
    });
    expect(planWrite(read(), [set(0, "ON")], { environment: "sandbox" }).write!.unread).toBeUndefined();
  });
});

describe("after the write", () => {
  it("answers each new set with the ids the write gave, and leaves the read the next post starts from", () => {
    const ignition: LiveSubscription = { ...waypoints, id: 12, type: "IGNITIONSTATUS", period: "STATECHANGE" };
    const before = read({ subscriptions: [waypoints, ignition] });
    const plan = planWrite(
      before,
      [
        set(0, "ON", [{ key: "GEN_WAYPOINT", value: "40,-83" }]),
        set(1, "RUNNING", [{ key: "GEN_SPEED", value: "30" }]),
      ],
      { environment: "sandbox" },
    );
    const written = {
      version: "1002",
      sets: [
        { id: 900, at: t(0).getTime(), tripId: 77 },
        { id: 901, at: t(1).getTime(), tripId: 77 },
      ],
      points: [
        { id: 5000, dataSetId: 900, position: 0 },
        { id: 5001, dataSetId: 901, position: 0 },
      ],
      createdTrips: new Map([[t(0).getTime(), 77]]),
    };
    expect(answerOf(7, plan.fresh, written)).toEqual([
      expect.objectContaining({
        id: 900,
        vehicleId: 7,
        tripId: 77,
        timestamp: "20260101T080000+0000",
        ignitionStatus: "ON",
        datum: [expect.objectContaining({ id: 5000, dataSetId: 900, key: "GEN_WAYPOINT" })],
      }),
      expect.objectContaining({
        id: 901,
        tripId: 77,
        datum: [expect.objectContaining({ id: 5001, dataSetId: 901, key: "GEN_SPEED", value: "30" })],
      }),
    ]);
    const after = readAfter(before, { ...plan, write: plan.write! }, written);
    expect(after).toMatchObject({
      version: "1002",
      state: { running: true, lastDataAt: t(1) },
      openTrip: { ref: 77, startTime: t(0) },
    });
    // Each subscription with the state the write stored for it (a WAYPOINT keeps none).
    expect(plan.write!.events!.states.has(12)).toBe(true);
    expect(after.subscriptions.map((s) => s.state)).toEqual([null, plan.write!.events!.states.get(12)]);
  });

  it("gives each point of a set the id the write gave its position, whatever order the ids come back in", () => {
    const plan = planWrite(
      read(),
      [
        set(0, "RUNNING", [
          { key: "GEN_SPEED", value: "30" },
          { key: "GEN_HEADING", value: "90" },
          { key: "GEN_RPM", value: "2000" },
        ]),
        set(1, "RUNNING", [{ key: "GEN_SPEED", value: "31" }]),
      ],
      { environment: "sandbox" },
    );
    const written = {
      version: "1002",
      sets: [
        { id: 901, at: t(1).getTime(), tripId: 77 },
        { id: 900, at: t(0).getTime(), tripId: 77 },
      ],
      points: [
        { id: 5003, dataSetId: 901, position: 0 },
        { id: 5002, dataSetId: 900, position: 2 },
        { id: 5000, dataSetId: 900, position: 0 },
        { id: 5001, dataSetId: 900, position: 1 },
      ],
      createdTrips: new Map([[t(0).getTime(), 77]]),
    };
    const answer = answerOf(7, plan.fresh, written);
    expect(answer.map((s) => s.datum.map((d) => [d.id, d.dataSetId, d.key]))).toEqual([
      [
        [5000, 900, "GEN_SPEED"],
        [5001, 900, "GEN_HEADING"],
        [5002, 900, "GEN_RPM"],
      ],
      [[5003, 901, "GEN_SPEED"]],
    ]);
  });
});
