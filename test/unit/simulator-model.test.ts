import { describe, expect, it } from "vitest";
import { ApiError } from "@/common/http/errors";
import { distance, distanceToPolyline, type LonLat } from "@/server/simulator/geo";
import { routeBetween, explicitPolyline } from "@/server/simulator/geometry";
import { generateTrip, reverseRoute, routeLength, type Trip } from "@/server/simulator/model";
import { lapOdometer, planLap } from "@/server/simulator/runner";
import { graphFor } from "@/server/simulator/routing";
import { NETWORKS } from "@/server/simulator/networks";

// The trip model on real Columbus roads: from Broad & High downtown to Clintonville, about 8 km.
const way = routeBetween([
  { field: "start", point: { latitude: 39.9612, longitude: -83.0007 } },
  { field: "end", point: { latitude: 40.0301, longitude: -83.0195 } },
]);
const route = way.geometry;
const lengthMeters = routeLength(route);
const value = (trip: Trip, i: number, key: string) => trip.samples[i]!.datum.find((d) => d.key === key)?.value;
const num = (trip: Trip, i: number, key: string) => Number(value(trip, i, key));
const KMH_160 = 160 / 3.6;

describe("simulator trip model", () => {
  it("routes on the road network: every step of the route is a road segment of the OSM data", () => {
    const graph = graphFor(NETWORKS[0]!);
    const key = (c: LonLat) => `${Math.round(c[0] * 1e5)},${Math.round(c[1] * 1e5)}`;
    expect(route.points.length).toBeGreaterThan(20);
    for (let i = 1; i < route.points.length; i++)
      expect(graph.segments.has(`${key(route.points[i - 1]!)}|${key(route.points[i]!)}`)).toBe(true);
    expect(lengthMeters).toBeGreaterThan(7000);
    expect(lengthMeters).toBeLessThan(14000);
  });

  it("ON first, RUNNING every collection period, OFF last, with strictly increasing whole-second timestamps", () => {
    const trip = generateTrip(route, { collectionPeriod: 30, seed: 1 });
    const kinds = trip.samples.map((s) => s.ignition);
    expect(kinds[0]).toBe("ON");
    expect(kinds.at(-1)).toBe("OFF");
    expect(kinds.slice(1, -1).every((k) => k === "RUNNING")).toBe(true);
    for (let i = 1; i < trip.samples.length; i++) {
      const { offset } = trip.samples[i]!;
      expect(Number.isInteger(offset)).toBe(true);
      expect(offset).toBeGreaterThan(trip.samples[i - 1]!.offset);
      if (i < trip.samples.length - 1) expect(offset).toBe(i * 30);
    }
  });

  it("stays within 30 m of the road geometry", () => {
    const trip = generateTrip(route, { collectionPeriod: 5, seed: 2 });
    for (const s of trip.samples) {
      const [lat, lon] = value(trip, trip.samples.indexOf(s), "GEN_WAYPOINT")!.split(",").map(Number) as [
        number,
        number,
      ];
      expect(distanceToPolyline([lon, lat], route.points)).toBeLessThan(30);
    }
  });

  it("has plausible speeds: no jump above 160 km/h between consecutive points, reported speeds within the limits", () => {
    for (const seed of [3, 4, 5]) {
      const trip = generateTrip(route, { collectionPeriod: 10, seed });
      for (let i = 1; i < trip.samples.length; i++) {
        const a = trip.samples[i - 1]!;
        const b = trip.samples[i]!;
        expect(distance(a.position, b.position) / (b.offset - a.offset)).toBeLessThan(KMH_160);
        expect(num(trip, i, "GEN_SPEED")).toBeLessThan(Math.max(...route.limitsMph) * 1.1);
      }
      // It does move, and it does slow down (curves, junction stops) before the end.
      const speeds = trip.samples.map((_, i) => num(trip, i, "GEN_SPEED"));
      expect(Math.max(...speeds)).toBeGreaterThan(20);
      expect(speeds.at(-1)).toBe(0);
    }
  });

  it("reports GEN_TRIP_MILEAGE within 2% of the route length, and the points driven add up to it", () => {
    const trip = generateTrip(route, { collectionPeriod: 1, seed: 6 });
    const routeMiles = lengthMeters / 1609.344;
    const mileage = num(trip, trip.samples.length - 1, "GEN_TRIP_MILEAGE");
    expect(Math.abs(mileage - routeMiles) / routeMiles).toBeLessThan(0.02);
    let driven = 0;
    for (let i = 1; i < trip.samples.length; i++)
      driven += distance(trip.samples[i - 1]!.position, trip.samples[i]!.position);
    expect(Math.abs(driven / 1609.344 - mileage) / mileage).toBeLessThan(0.02);
  });

  it("is deterministic by seed: the same seed gives the same trip, another seed another", () => {
    const a = generateTrip(route, { collectionPeriod: 20, seed: 42 });
    const b = generateTrip(route, { collectionPeriod: 20, seed: 42 });
    const c = generateTrip(route, { collectionPeriod: 20, seed: 43 });
    expect(b).toEqual(a);
    expect(c.samples.map((s) => s.datum)).not.toEqual(a.samples.map((s) => s.datum));
  });

  it("reports engine data: voltage 13–14.5 V running and resting when off, fuel draining, coolant warming", () => {
    const trip = generateTrip(route, { collectionPeriod: 30, seed: 8, fuelLevel: 60 });
    const last = trip.samples.length - 1;
    for (let i = 0; i < last; i++) {
      expect(num(trip, i, "GEN_VOLTAGE")).toBeGreaterThanOrEqual(13);
      expect(num(trip, i, "GEN_VOLTAGE")).toBeLessThanOrEqual(14.5);
      expect(num(trip, i, "GEN_RPM")).toBeGreaterThan(500);
    }
    expect(num(trip, last, "GEN_VOLTAGE")).toBeGreaterThanOrEqual(12.2);
    expect(num(trip, last, "GEN_VOLTAGE")).toBeLessThan(13);
    expect(num(trip, last, "GEN_FUELLEVEL")).toBeLessThan(60);
    expect(num(trip, last, "GEN_ENGINE_COOLANT_TEMP")).toBeGreaterThan(num(trip, 0, "GEN_ENGINE_COOLANT_TEMP") + 20);
    expect(Number(value(trip, 1, "GEN_HEADING"))).toBeGreaterThanOrEqual(0);
    const bare = generateTrip(route, { collectionPeriod: 30, seed: 8, engineData: false });
    expect(bare.samples[1]!.datum.map((d) => d.key)).toEqual([
      "GEN_WAYPOINT",
      "GEN_SPEED",
      "GEN_HEADING",
      "GEN_VOLTAGE",
    ]);
  });

  it("low-battery scenario keeps the voltage under 12.0 V", () => {
    const trip = generateTrip(route, { collectionPeriod: 30, seed: 9, lowBattery: true });
    trip.samples.forEach((_, i) => expect(num(trip, i, "GEN_VOLTAGE")).toBeLessThan(12));
  });

  it("injects events on the first data set at or past their point of the route", () => {
    const trip = generateTrip(route, {
      collectionPeriod: 10,
      seed: 10,
      events: [
        { at: 0.5, key: "VEHICLE_EVENT_HARSH_DECEL", value: "1" },
        { at: 0, key: "GEN_DTC", value: "P0300" },
        { at: 1, key: "VEHICLE_EVENT_HARSH_IMPACT", value: "1" },
      ],
    });
    const where = (key: string) => trip.samples.findIndex((s) => s.datum.some((d) => d.key === key));
    expect(where("GEN_DTC")).toBe(0);
    const decel = where("VEHICLE_EVENT_HARSH_DECEL");
    expect(trip.samples[decel]!.progress).toBeGreaterThanOrEqual(0.5);
    expect(trip.samples[decel - 1]!.progress).toBeLessThan(0.5);
    expect(where("VEHICLE_EVENT_HARSH_IMPACT")).toBe(trip.samples.length - 1);
  });

  it("schedules a sped-up lap at whole seconds, strictly increasing, collectionPeriod / speedUp apart", () => {
    const run = {
      geometry: route,
      seed: 11,
      lap: 0,
      collectionPeriod: 60,
      speedUp: 60,
      repeat: false,
      params: { events: [], lowBattery: false, engineData: true, fuelLevel: null },
    };
    const { due, trip } = planLap(run);
    expect(due.length).toBe(trip.samples.length);
    for (let i = 1; i < due.length; i++) expect(due[i]!).toBeGreaterThan(due[i - 1]!);
    expect(due[1]).toBe(1);
    // A repeating run that is not a loop drives its odd laps backwards.
    const back = planLap({ ...run, repeat: true, lap: 1 });
    expect(back.trip.samples[0]!.position).toEqual(reverseRoute(route).points[0]);
  });

  it("reports GEN_ODOMETER in every data set: the starting odometer plus the distance driven, ending at start + trip mileage", () => {
    const trip = generateTrip(route, { collectionPeriod: 30, seed: 4, odometer: 48210 });
    const odometers = trip.samples.map((_, i) => num(trip, i, "GEN_ODOMETER"));
    expect(odometers.every((o) => Number.isFinite(o))).toBe(true);
    expect(odometers[0]).toBe(48210);
    for (let i = 1; i < odometers.length; i++) expect(odometers[i]!).toBeGreaterThanOrEqual(odometers[i - 1]!);
    // It grows along the way, not only at the end.
    const middle = Math.floor(odometers.length / 2);
    expect(odometers[middle]!).toBeGreaterThan(48210 + trip.mileage * 0.2);
    expect(odometers[middle]!).toBeLessThan(48210 + trip.mileage * 0.8);
    expect(odometers.at(-1)).toBeCloseTo(48210 + num(trip, trip.samples.length - 1, "GEN_TRIP_MILEAGE"), 6);
    // Without a starting odometer (runs from before), none is reported; the rest is unchanged.
    const without = generateTrip(route, { collectionPeriod: 30, seed: 4 });
    expect(without.samples.some((s) => s.datum.some((d) => d.key === "GEN_ODOMETER"))).toBe(false);
    expect(without.samples.map((s) => s.position)).toEqual(trip.samples.map((s) => s.position));
  });

  it("starts each lap's odometer where the previous lap ended", () => {
    const run = {
      geometry: route,
      seed: 5,
      lap: 0,
      collectionPeriod: 60,
      speedUp: 1,
      repeat: true,
      params: { events: [], lowBattery: false, engineData: true, fuelLevel: null, odometer: 1000 },
    };
    const first = planLap(run).trip;
    const second = planLap({ ...run, lap: 1 }).trip;
    const last = (trip: Trip) => num(trip, trip.samples.length - 1, "GEN_ODOMETER");
    expect(lapOdometer(run)).toBe(1000);
    expect(num(second, 0, "GEN_ODOMETER")).toBeCloseTo(last(first), 6);
    expect(last(second)).toBeCloseTo(1000 + 2 * first.mileage, 6);
    expect(lapOdometer({ ...run, params: { ...run.params, odometer: null } })).toBeNull();
  });

  it("refuses points outside the covered area, and far from any road, with field errors", () => {
    const fieldOf = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        expect(error).toBeInstanceOf(ApiError);
        return (error as ApiError).fieldErrors.map((f) => f.fieldName);
      }
      throw new Error("no error");
    };
    expect(
      fieldOf(() =>
        routeBetween([
          { field: "start", point: { latitude: 41.5, longitude: -81.7 } },
          { field: "end", point: { latitude: 39.97, longitude: -83 } },
        ]),
      ),
    ).toEqual(["start"]);
    expect(
      fieldOf(() =>
        routeBetween([
          { field: "start", point: { latitude: 39.97, longitude: -83 } },
          { field: "end", point: { latitude: 38.9, longitude: -77.03 } },
        ]),
      ),
    ).toEqual(["end"]);
    expect(
      fieldOf(() =>
        explicitPolyline([
          { latitude: 39.97, longitude: -83 },
          { latitude: 10, longitude: 10 },
        ]),
      ),
    ).toEqual(["route.1"]);
  });
});
