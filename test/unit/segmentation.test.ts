import { describe, expect, it } from "vitest";
import { mileageAfterTrip, planIngest, type OpenTrip, type VehicleState } from "@/server/telemetry/segmentation";
import type { DataSetInput } from "@/server/telemetry/schemas";

const t = (minute: number) => new Date(Date.UTC(2026, 0, 1, 8, minute));
const set = (
  minute: number,
  ignitionStatus: DataSetInput["ignitionStatus"],
  datum: { key: string; value: string }[] = [],
): DataSetInput => ({
  timestamp: t(minute),
  ignitionStatus,
  datum: datum.map((d) => ({ ...d, timestamp: t(minute) })),
});
const fresh: VehicleState = {
  mileage: 100,
  running: false,
  lastRunningAt: null,
  lastDataAt: null,
  lastWaypoint: null,
  vin: null,
};

describe("planIngest", () => {
  it("ON opens, RUNNING extends, OFF closes with the trip mileage added to the vehicle", () => {
    const plan = planIngest({ state: fresh, openTrip: null }, [
      set(0, "ON"),
      set(1, "RUNNING", [{ key: "GEN_WAYPOINT", value: "40,-83" }]),
      set(2, "OFF", [{ key: "GEN_TRIP_MILEAGE", value: "3.5" }]),
    ]);
    expect(plan.tripOf).toEqual([-1, -1, -1]);
    expect(plan.trips).toHaveLength(1);
    expect(plan.trips[0]).toMatchObject({
      startTime: t(0),
      endTime: t(2),
      mileage: 3.5,
      start: { latitude: 40, longitude: -83 },
    });
    expect(plan.state).toMatchObject({ mileage: 103.5, running: false, lastRunningAt: t(1), lastDataAt: t(2) });
  });

  it("an ON during an open trip closes it at its last data set", () => {
    const plan = planIngest({ state: fresh, openTrip: null }, [set(0, "ON"), set(3, "RUNNING"), set(7, "ON")]);
    expect(plan.tripOf).toEqual([-1, -1, -2]);
    expect(plan.trips.find((trip) => trip.ref === -1)).toMatchObject({ endTime: t(3), mileage: null });
    expect(plan.trips.find((trip) => trip.ref === -2)).toMatchObject({ startTime: t(7), endTime: null });
  });

  it("continues an existing open trip and marks older data sets late", () => {
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
    const plan = planIngest({ state: { ...fresh, lastDataAt: t(5), running: true }, openTrip: open }, [
      set(3, "RUNNING"),
      set(6, "RUNNING"),
    ]);
    expect(plan.tripOf).toEqual(["late", 42]);
    expect(plan.trips).toEqual([expect.objectContaining({ ref: 42, lastDataAt: t(6) })]);
  });

  it("an odometer reading only ever raises the mileage", () => {
    const plan = planIngest({ state: fresh, openTrip: null }, [
      set(0, "OFF", [{ key: "GEN_ODOMETER", value: "90" }]),
      set(1, "OFF", [{ key: "GEN_ODOMETER", value: "150" }]),
    ]);
    expect(plan.state.mileage).toBe(150);
    expect(plan.tripOf).toEqual([null, null]);
  });

  describe("mileage with odometer readings during a trip", () => {
    const odo = (value: number) => ({ key: "GEN_ODOMETER", value: String(value) });
    const tripMiles = (value: number) => ({ key: "GEN_TRIP_MILEAGE", value: String(value) });

    it("grows with each GEN_ODOMETER and does not add the trip's mileage again on close", () => {
      const plan = planIngest({ state: fresh, openTrip: null }, [
        set(0, "ON", [odo(100)]),
        set(1, "RUNNING", [odo(101.2)]),
        set(2, "RUNNING", [odo(102.5)]),
        set(3, "OFF", [odo(103), tripMiles(3)]),
      ]);
      expect(plan.state.mileage).toBe(103);
      expect(plan.trips[0]).toMatchObject({ startMileage: 100, mileage: 3 });
    });

    it("counts the trip from the mileage when it opened, across batches (a device posting one set at a time)", () => {
      const first = planIngest({ state: fresh, openTrip: null }, [set(0, "ON", [odo(100)])]);
      const open = first.open!;
      const second = planIngest({ state: first.state, openTrip: { ...open, ref: 7 } }, [
        set(1, "RUNNING", [odo(101.5)]),
      ]);
      expect(second.state.mileage).toBe(101.5);
      // The closing set carries no odometer: the start plus the trip's mileage.
      const third = planIngest({ state: second.state, openTrip: { ...second.open! } }, [
        set(2, "OFF", [tripMiles(2.5)]),
      ]);
      expect(third.state.mileage).toBe(102.5);
    });

    it("a trip opened by a set with an odometer above the mileage starts from the odometer", () => {
      const plan = planIngest({ state: fresh, openTrip: null }, [
        set(0, "ON", [odo(500)]),
        set(1, "OFF", [tripMiles(4)]),
      ]);
      expect(plan.trips[0]!.startMileage).toBe(500);
      expect(plan.state.mileage).toBe(504);
    });

    it("without odometer readings, a closing trip adds its mileage as before", () => {
      const plan = planIngest({ state: fresh, openTrip: null }, [
        set(0, "ON"),
        set(1, "RUNNING"),
        set(2, "OFF", [tripMiles(2)]),
      ]);
      expect(plan.state.mileage).toBe(102);
    });

    it("a trip opened before start mileages were recorded counts from the mileage before its closing set", () => {
      const legacy: OpenTrip = {
        ref: 9,
        startTime: t(0),
        lastDataAt: t(1),
        endTime: null,
        mileage: null,
        startMileage: null,
        start: null,
        end: null,
      };
      const plan = planIngest(
        { state: { ...fresh, mileage: 150, lastDataAt: t(1), running: true }, openTrip: legacy },
        [set(2, "OFF", [tripMiles(5)])],
      );
      expect(plan.state.mileage).toBe(155);
    });

    it("mileageAfterTrip: the largest of now, start + trip mileage; never lower; nothing for no or a negative trip mileage", () => {
      expect(mileageAfterTrip({ current: 103, atStart: 100, tripMileage: 3 })).toBe(103);
      expect(mileageAfterTrip({ current: 101, atStart: 100, tripMileage: 3 })).toBe(103);
      expect(mileageAfterTrip({ current: 110, atStart: 100, tripMileage: 3 })).toBe(110);
      expect(mileageAfterTrip({ current: 100, atStart: 100, tripMileage: null })).toBe(100);
      expect(mileageAfterTrip({ current: 100, atStart: 100, tripMileage: -2 })).toBe(100);
    });
  });
});
