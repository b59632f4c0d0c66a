import { describe, expect, it } from "vitest";
import { PARKED_MS, ignitionStatuses, type TripState } from "@/server/devices/ignition";
import { knotsFromKmh } from "@/server/devices/protocols/data-points";

// The ignition rules of docs/devices.md#trips, from the stored state a batch reads under the
// vehicle's lock: a device's ignition, or its motion when it reports none.

const t0 = new Date("2026-12-07T08:00:00Z").getTime();
const at = (seconds: number) => new Date(t0 + seconds * 1000);
const parked: TripState = { running: false, lastDataAt: null, lastRunningAt: null, ignition: null, motionAt: null };
const kmh = (speed: number) => knotsFromKmh(speed);

describe("ignition from the device's ignition", () => {
  it("the first record with it on after off is ON, the next RUNNING, off is OFF", () => {
    const { statuses, state } = ignitionStatuses(parked, [
      { fixTime: at(0), ignition: false },
      { fixTime: at(10), ignition: true },
      { fixTime: at(20), ignition: true },
      { fixTime: at(30), ignition: false },
      { fixTime: at(40), ignition: true },
    ]);
    expect(statuses).toEqual(["OFF", "ON", "RUNNING", "OFF", "ON"]);
    expect(state).toMatchObject({ running: true, ignition: true, lastDataAt: at(40), lastRunningAt: at(40) });
  });

  it("continues from the stored state: a vehicle already running gets RUNNING, not a second ON", () => {
    const running: TripState = { ...parked, running: true, lastDataAt: at(0), lastRunningAt: at(0), ignition: true };
    expect(ignitionStatuses(running, [{ fixTime: at(10), ignition: true }]).statuses).toEqual(["RUNNING"]);
  });

  it("a record without an ignition, from a device that has reported one, keeps the last reported", () => {
    const { statuses } = ignitionStatuses(parked, [
      { fixTime: at(0), ignition: true },
      { fixTime: at(10), speedKnots: 0 },
      { fixTime: at(20), ignition: false },
      { fixTime: at(30), speedKnots: kmh(50) },
    ]);
    expect(statuses).toEqual(["ON", "RUNNING", "OFF", "OFF"]);
  });

  it("stopped in traffic with the ignition on stays RUNNING however long", () => {
    const { statuses } = ignitionStatuses(parked, [
      { fixTime: at(0), ignition: true, speedKnots: 0 },
      { fixTime: at(3600), ignition: true, speedKnots: 0 },
    ]);
    expect(statuses).toEqual(["ON", "RUNNING"]);
  });
});

describe("trips from motion, for a device that reports no ignition", () => {
  it("moving (3 km/h or more) opens a trip; stopped for less than 5 minutes extends it; the first record after 5 minutes is the OFF", () => {
    const { statuses, state } = ignitionStatuses(parked, [
      { fixTime: at(0), speedKnots: kmh(2.9) },
      { fixTime: at(60), speedKnots: kmh(3) },
      { fixTime: at(120), speedKnots: kmh(40) },
      { fixTime: at(180), speedKnots: 0 },
      { fixTime: at(120 + PARKED_MS / 1000 - 1), speedKnots: 0 },
      { fixTime: at(120 + PARKED_MS / 1000), speedKnots: 0 },
      { fixTime: at(1000), speedKnots: 0 },
      { fixTime: at(1060), speedKnots: kmh(20) },
    ]);
    expect(statuses).toEqual(["OFF", "ON", "RUNNING", "RUNNING", "RUNNING", "OFF", "OFF", "ON"]);
    expect(state).toMatchObject({ ignition: null, motionAt: at(1060), running: true });
  });

  it("a record without speed counts as no motion", () => {
    const { statuses } = ignitionStatuses(parked, [
      { fixTime: at(0), speedKnots: kmh(30) },
      { fixTime: at(30) },
      { fixTime: at(400) },
    ]);
    expect(statuses).toEqual(["ON", "RUNNING", "OFF"]);
  });

  it("the 5 minutes run from the stored last motion, across batches and restarts", () => {
    const first = ignitionStatuses(parked, [{ fixTime: at(0), speedKnots: kmh(30) }]);
    const second = ignitionStatuses(first.state, [{ fixTime: at(200), speedKnots: 0 }]);
    const third = ignitionStatuses(second.state, [{ fixTime: at(301), speedKnots: 0 }]);
    expect([...first.statuses, ...second.statuses, ...third.statuses]).toEqual(["ON", "RUNNING", "OFF"]);
  });
});

describe("late records", () => {
  it("a record older than the vehicle's newest is RUNNING or OFF by its own ignition or motion, and changes no state", () => {
    const running: TripState = {
      running: true,
      lastDataAt: at(600),
      lastRunningAt: at(600),
      ignition: null,
      motionAt: at(600),
    };
    const { statuses, state } = ignitionStatuses(running, [
      { fixTime: at(100), speedKnots: kmh(30) },
      { fixTime: at(200), speedKnots: 0 },
      { fixTime: at(300), ignition: false },
    ]);
    expect(statuses).toEqual(["RUNNING", "OFF", "OFF"]);
    expect(state).toEqual(running);
  });
});
