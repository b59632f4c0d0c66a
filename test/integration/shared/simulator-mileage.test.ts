import { describe, expect, it } from "vitest";
import { api, createDriver } from "@/test/helpers/api";
import { apps } from "@/test/helpers/fixtures";

// The simulated device reports GEN_ODOMETER as real ones do, and ingest counts a trip's miles once:
// the vehicle's mileage grows during a run and ends at its start + the route's length.

const sandbox = api("sandbox");
const DOWNTOWN = { latitude: 39.9612, longitude: -83.0007 };
const CLINTONVILLE = { latitude: 40.0301, longitude: -83.0195 };

/** A wire DateTime `hours` before now: instant runs given their own times never overlap. */
const hoursAgo = (hours: number) =>
  new Date(Date.now() - hours * 3_600_000)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}Z$/, "+0000");

async function driverWithMileage(mileage: number) {
  const driver = await createDriver("sandbox", apps().main.sandbox);
  const created = await sandbox.post("/vehicle/", { label: "Odometer car", mileage }, driver.accessToken);
  if (created.status !== 200) throw new Error(`vehicle create failed: ${created.status} ${created.text}`);
  return { token: driver.accessToken, vehicleId: created.body.vehicle.vehicleId as number };
}

describe("mileage of simulated vehicles", () => {
  it("an instant run leaves the vehicle's mileage at its start + the route's length, not twice the route", async () => {
    const { token, vehicleId } = await driverWithMileage(1000);
    const res = await sandbox.post(
      `/vehicle/${vehicleId}/simulation/`,
      { mode: "instant", start: DOWNTOWN, end: CLINTONVILLE, seed: 8, collectionPeriod: 30, startTime: hoursAgo(6) },
      token,
    );
    expect(res.status, res.text).toBe(200);
    const run = res.body.simulation;

    const [trip] = (await sandbox.get(`/vehicle/${vehicleId}/trip/`, token)).body.trip;
    expect(Math.abs(trip.mileage - run.routeLengthMiles)).toBeLessThan(0.05);
    const vehicle = (await sandbox.get(`/vehicle/${vehicleId}`, token)).body.vehicle;
    expect(vehicle.mileage).toBeCloseTo(1000 + trip.mileage, 6);

    // Every data set carried the odometer, rising from the start to start + trip mileage.
    const odometers = (await sandbox.get(`/vehicle/${vehicleId}/data/?key=GEN_ODOMETER&searchLimit=500`, token)).body
      .data as { value: string; timestamp: string }[];
    expect(odometers).toHaveLength(run.dataSetCount);
    const values = odometers.sort((a, b) => a.timestamp.localeCompare(b.timestamp)).map((d) => Number(d.value));
    expect(values[0]).toBe(1000);
    for (let i = 1; i < values.length; i++) expect(values[i]!).toBeGreaterThanOrEqual(values[i - 1]!);
    expect(values.at(-1)).toBeCloseTo(1000 + trip.mileage, 6);

    // A second run, later (left to its default start, now minus its duration, it would overlap the
    // first and be stored as late data), starts from where the first left the odometer.
    const again = await sandbox.post(
      `/vehicle/${vehicleId}/simulation/`,
      { mode: "instant", start: CLINTONVILLE, end: DOWNTOWN, seed: 9, collectionPeriod: 30, startTime: hoursAgo(3) },
      token,
    );
    expect(again.status, again.text).toBe(200);
    const trips = (await sandbox.get(`/vehicle/${vehicleId}/trip/`, token)).body.trip as { mileage: number }[];
    const total = trips.reduce((sum, t) => sum + t.mileage, 0);
    expect((await sandbox.get(`/vehicle/${vehicleId}`, token)).body.vehicle.mileage).toBeCloseTo(1000 + total, 6);
  });

  it("posts GEN_ODOMETER and GEN_TRIP_MILEAGE to the hundredth, and the vehicle from 110.3 reads their exact sum", async () => {
    const { token, vehicleId } = await driverWithMileage(110.3);
    const res = await sandbox.post(
      `/vehicle/${vehicleId}/simulation/`,
      { mode: "instant", start: DOWNTOWN, end: CLINTONVILLE, seed: 8, collectionPeriod: 30 },
      token,
    );
    expect(res.status, res.text).toBe(200);
    const hundredths = /^\d+(\.\d{1,2})?$/;
    for (const key of ["GEN_ODOMETER", "GEN_TRIP_MILEAGE"]) {
      const points = (await sandbox.get(`/vehicle/${vehicleId}/data/?key=${key}&searchLimit=500`, token)).body.data as {
        value: string;
      }[];
      expect(points.length).toBeGreaterThan(0);
      for (const { value } of points) expect(value).toMatch(hundredths);
    }
    const trips = await sandbox.get(`/vehicle/${vehicleId}/trip/`, token);
    const tripMiles = /"mileage":([^,]*),/.exec(trips.text)![1]!;
    expect(tripMiles).toMatch(hundredths);
    // 110.3 + the trip's miles, summed in whole hundredths here: exactly what the vehicle must read.
    const expected = String((11030 + Math.round(Number(tripMiles) * 100)) / 100);
    expect((await sandbox.get(`/vehicle/${vehicleId}`, token)).text).toContain(`"mileage":${expected},`);
  });

  it(
    "a real-time run's vehicle mileage grows while it drives, before the trip closes",
    { timeout: 60_000 },
    async () => {
      const { token, vehicleId } = await driverWithMileage(500);
      const started = await sandbox.post(
        `/vehicle/${vehicleId}/simulation/`,
        { mode: "realtime", templateId: "columbus-downtown-loop", speedUp: 10, collectionPeriod: 10, seed: 6 },
        token,
      );
      expect(started.status, started.text).toBe(200);
      const run = started.body.simulation;
      try {
        const seen: { mileage: number; running: boolean }[] = [];
        const deadline = Date.now() + 30_000;
        while (Date.now() < deadline) {
          const vehicle = (await sandbox.get(`/vehicle/${vehicleId}`, token)).body.vehicle;
          seen.push({ mileage: vehicle.mileage, running: vehicle.running });
          const moving = seen.filter((s) => s.running && s.mileage > 500);
          if (new Set(moving.map((s) => s.mileage)).size >= 2) break;
          await new Promise((r) => setTimeout(r, 500));
        }
        const moving = seen.filter((s) => s.running && s.mileage > 500).map((s) => s.mileage);
        expect(new Set(moving).size, JSON.stringify(seen)).toBeGreaterThanOrEqual(2);
        for (let i = 1; i < seen.length; i++) expect(seen[i]!.mileage).toBeGreaterThanOrEqual(seen[i - 1]!.mileage);
        // The trip is still open: the growth came from GEN_ODOMETER, not from a closed trip.
        const [trip] = (await sandbox.get(`/vehicle/${vehicleId}/trip/`, token)).body.trip;
        expect(trip.endTime).toBeNull();
        expect(Math.max(...moving)).toBeLessThan(500 + run.routeLengthMiles);
      } finally {
        await sandbox.del(`/vehicle/${vehicleId}/simulation/${run.id}`, token);
      }
    },
  );
});
