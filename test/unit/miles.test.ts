import { describe, expect, it } from "vitest";
import { translateValue } from "@/common/telemetry/keys";
import { mileageAfterTrip, planIngest, type VehicleState } from "@/server/telemetry/segmentation";
import type { DataSetInput } from "@/server/telemetry/schemas";
import { MAX_MILES, addMiles, milesOfInput, milesOfReading, wholeMilesText } from "@/common/telemetry/miles";
import { createVehicleBody, updateVehicleBody } from "@/server/vehicles/schemas";

// Mileage is exact decimal arithmetic: 0.1 + 0.2 is 0.3 on the wire, never 0.30000000000000004.
// Each expectation is also checked as JSON text, where binary noise would show.
const json = (n: number | null) => JSON.stringify(n);

describe("miles", () => {
  it("addMiles: sums to the thousandth with no float noise (0.1 + 0.2 is 0.3, 110.3 + 2.3 is 112.6)", () => {
    expect(json(addMiles(0.1, 0.2))).toBe("0.3");
    expect(json(addMiles(110.3, 2.3))).toBe("112.6");
    expect(json(addMiles(160854.7, 0.001))).toBe("160854.701");
    expect(json(addMiles(9_999_999.999, 0.001))).toBe("10000000");
    let total = 0;
    for (let i = 0; i < 10; i++) total = addMiles(total, 0.1);
    expect(json(total)).toBe("1");
  });

  it("milesOfReading: a device's text to the thousandth, rounded on its digits; null for no mileage", () => {
    expect(json(milesOfReading("0.2"))).toBe("0.2");
    expect(json(milesOfReading(" 160854.7 "))).toBe("160854.7");
    expect(json(milesOfReading("12.3454"))).toBe("12.345");
    expect(json(milesOfReading("12.3455"))).toBe("12.346");
    expect(json(milesOfReading("0.30000000000000004"))).toBe("0.3");
    expect(json(milesOfReading("0.0004"))).toBe("0");
    expect(milesOfReading(String(MAX_MILES))).toBe(MAX_MILES);
    expect(milesOfReading("10000000.001")).toBeNull();
    expect(milesOfReading("123456789012345678901234567890")).toBeNull();
    expect(milesOfReading("-1")).toBeNull();
    expect(milesOfReading("1e3")).toBeNull();
    expect(milesOfReading("abc")).toBeNull();
  });

  it("milesOfInput: an API number to the thousandth by the decimal that was sent", () => {
    expect(json(milesOfInput(10.25))).toBe("10.25");
    expect(json(milesOfInput(10.2545))).toBe("10.255");
    expect(json(milesOfInput(0.1 + 0.2))).toBe("0.3");
    expect(json(milesOfInput(1e-7))).toBe("0");
    expect(json(milesOfInput(48210))).toBe("48210");
  });

  it("wholeMilesText: rounds half away from zero on the digits, exactly at any length", () => {
    expect(wholeMilesText("4.4")).toBe("4");
    expect(wholeMilesText("4.5")).toBe("5");
    expect(wholeMilesText("4.4999999999999999")).toBe("4");
    expect(wholeMilesText("160854.7")).toBe("160855");
    expect(wholeMilesText("123456789012345678901234.5")).toBe("123456789012345678901235");
    expect(wholeMilesText("-0.2")).toBe("0");
    expect(wholeMilesText("many")).toBeNull();
  });
});

describe("translatedValue of mileages", () => {
  it("GEN_TRIP_MILEAGE and GEN_ODOMETER: a whole number of miles, rounded on the digits", () => {
    expect(translateValue("GEN_TRIP_MILEAGE", "4.4")).toBe("4 miles");
    expect(translateValue("GEN_TRIP_MILEAGE", "4.4999999999999999")).toBe("4 miles");
    expect(translateValue("GEN_TRIP_MILEAGE", "0.2")).toBe("0 miles");
    expect(translateValue("GEN_ODOMETER", "160854")).toBe("160854 miles");
    expect(translateValue("GEN_ODOMETER", "160854.7")).toBe("160855 miles");
    expect(translateValue("GEN_ODOMETER", "99999999999999999999999")).toBe("99999999999999999999999 miles");
    expect(translateValue("GEN_ODOMETER", "n/a")).toBe("n/a");
  });
});

describe("mileage in the vehicle's schemas", () => {
  it("accepts numbers and numeric strings, to the thousandth", () => {
    expect(updateVehicleBody.parse({ mileage: "10.25" })).toEqual({ mileage: 10.25 });
    expect(json(createVehicleBody.parse({ mileage: 0.1 }).mileage!)).toBe("0.1");
    expect(json(createVehicleBody.parse({ mileage: "120344.0004" }).mileage!)).toBe("120344");
    expect(json(createVehicleBody.parse({ mileage: 2.0005 }).mileage!)).toBe("2.001");
    expect(createVehicleBody.safeParse({ mileage: MAX_MILES + 0.001 }).success).toBe(false);
  });
});

describe("planIngest adds mileage exactly", () => {
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
  const state = (mileage: number): VehicleState => ({
    mileage,
    running: false,
    lastRunningAt: null,
    lastDataAt: null,
    lastWaypoint: null,
    vin: null,
  });
  const trip = (start: number, miles: string) => [
    set(start, "ON"),
    set(start + 1, "RUNNING"),
    set(start + 2, "OFF", [{ key: "GEN_TRIP_MILEAGE", value: miles }]),
  ];

  it("0.1 + a trip of 0.2 is 0.3; the trip's mileage is 0.2", () => {
    const plan = planIngest({ state: state(0.1), openTrip: null }, trip(0, "0.2"));
    expect(json(plan.state.mileage)).toBe("0.3");
    expect(json(plan.trips[0]!.mileage)).toBe("0.2");
  });

  it("ten trips of 0.1 make exactly 1", () => {
    const sets = Array.from({ length: 10 }, (_, i) => trip(i * 3, "0.1")).flat();
    expect(json(planIngest({ state: state(0), openTrip: null }, sets).state.mileage)).toBe("1");
  });

  it("an odometer reading replaces the mileage exactly; one beyond any mileage is ignored", () => {
    const plan = planIngest({ state: state(0.3), openTrip: null }, [
      set(0, "OFF", [{ key: "GEN_ODOMETER", value: "160854.7" }]),
      set(1, "OFF", [{ key: "GEN_ODOMETER", value: "99999999999" }]),
    ]);
    expect(json(plan.state.mileage)).toBe("160854.7");
  });

  it("mileageAfterTrip stops at the most a vehicle may show", () => {
    expect(mileageAfterTrip({ current: 9_999_999, atStart: 9_999_999, tripMileage: 5 })).toBe(MAX_MILES);
    expect(json(mileageAfterTrip({ current: 110.3, atStart: 110.3, tripMileage: 2.3 }))).toBe("112.6");
  });
});
