import { describe, expect, it } from "vitest";
import { planIngest, type VehicleState } from "@/server/telemetry/segmentation";
import type { DataSetInput } from "@/server/telemetry/schemas";

const t = (minute: number) => new Date(Date.UTC(2026, 0, 1, 8, minute));
const set = (minute: number, ignitionStatus: DataSetInput["ignitionStatus"], datum: { key: string; value: string }[] = []): DataSetInput => ({
  timestamp: t(minute),
  ignitionStatus,
  datum: datum.map((d) => ({ ...d, timestamp: t(minute) })),
});
const fresh: VehicleState = { mileage: 100, running: false, lastRunningAt: null, lastDataAt: null, lastWaypoint: null, vin: null };

describe("planIngest", () => {
  it("ON opens, RUNNING extends, OFF closes with the trip mileage added to the vehicle", () => {
    const plan = planIngest({ state: fresh, openTrip: null }, [set(0, "ON"), set(1, "RUNNING", [{ key: "GEN_WAYPOINT", value: "40,-83" }]), set(2, "OFF", [{ key: "GEN_TRIP_MILEAGE", value: "3.5" }])]);
    expect(plan.tripOf).toEqual([-1, -1, -1]);
    expect(plan.trips).toHaveLength(1);
    expect(plan.trips[0]).toMatchObject({ startTime: t(0), endTime: t(2), mileage: 3.5, start: { latitude: 40, longitude: -83 } });
    expect(plan.state).toMatchObject({ mileage: 103.5, running: false, lastRunningAt: t(1), lastDataAt: t(2) });
  });

  it("an ON during an open trip closes it at its last data set", () => {
    const plan = planIngest({ state: fresh, openTrip: null }, [set(0, "ON"), set(3, "RUNNING"), set(7, "ON")]);
    expect(plan.tripOf).toEqual([-1, -1, -2]);
    expect(plan.trips.find((trip) => trip.ref === -1)).toMatchObject({ endTime: t(3), mileage: null });
    expect(plan.trips.find((trip) => trip.ref === -2)).toMatchObject({ startTime: t(7), endTime: null });
  });

  it("continues an existing open trip and marks older data sets late", () => {
    const open = { ref: 42, startTime: t(0), lastDataAt: t(5), endTime: null, mileage: null, start: null, end: null };
    const plan = planIngest({ state: { ...fresh, lastDataAt: t(5), running: true }, openTrip: open }, [set(3, "RUNNING"), set(6, "RUNNING")]);
    expect(plan.tripOf).toEqual(["late", 42]);
    expect(plan.trips).toEqual([expect.objectContaining({ ref: 42, lastDataAt: t(6) })]);
  });

  it("an odometer reading only ever raises the mileage", () => {
    const plan = planIngest({ state: fresh, openTrip: null }, [set(0, "OFF", [{ key: "GEN_ODOMETER", value: "90" }]), set(1, "OFF", [{ key: "GEN_ODOMETER", value: "150" }])]);
    expect(plan.state.mileage).toBe(150);
    expect(plan.tripOf).toEqual([null, null]);
  });
});
