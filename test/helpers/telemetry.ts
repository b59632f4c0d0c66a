import { expect } from "vitest";
import { api, createDriver, request, type Env } from "./api";
import { apps } from "./fixtures";

// Building blocks for the device-data tests: wire DateTimes and data sets as a device (or the
// sandbox simulator) posts them.

export const wireTime = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}Z$/, "+0000");

export type Datum = { key: string; value: string | number | boolean; timestamp?: string };

export function dataSet(
  at: Date,
  ignitionStatus: "ON" | "RUNNING" | "OFF",
  datum: Datum[] = [],
  extra: Record<string, unknown> = {},
) {
  return {
    timestamp: wireTime(at),
    ignitionStatus,
    datum: datum.map((d) => ({ timestamp: wireTime(at), ...d })),
    ...extra,
  };
}

// Rounded like a device's fix, so sums such as 39.9612 + 0.01 read back as written.
export const waypoint = (lat: number, lon: number): Datum => ({
  key: "GEN_WAYPOINT",
  value: `${Number(lat.toFixed(6))},${Number(lon.toFixed(6))}`,
});

/**
 * A whole trip as the sandbox simulator posts it: ON, RUNNING points a minute apart along a line,
 * OFF with GEN_TRIP_MILEAGE. `start` is the ON time.
 */
export function simulatedTrip(start: Date, { points = 10, mileage = 4.2, lat = 39.9612, lon = -82.9988 } = {}) {
  const at = (minute: number) => new Date(start.getTime() + minute * 60_000);
  const sets = [dataSet(at(0), "ON", [waypoint(lat, lon), { key: "GEN_VOLTAGE", value: 13.9 }])];
  for (let i = 1; i <= points; i++) {
    sets.push(
      dataSet(at(i), "RUNNING", [
        waypoint(lat + i * 0.001, lon + i * 0.001),
        { key: "GEN_SPEED", value: 20 + i },
        { key: "GEN_HEADING", value: 45 },
      ]),
    );
  }
  sets.push(
    dataSet(at(points + 1), "OFF", [
      waypoint(lat + points * 0.001, lon + points * 0.001),
      { key: "GEN_TRIP_MILEAGE", value: mileage },
    ]),
  );
  return sets;
}

/** A fresh driver with one vehicle, and the tokens to post and read its data. */
export async function driverWithVehicle(env: Env = "sandbox", appName: "main" | "provider" = "main") {
  const driver = await createDriver(env, apps()[appName][env]);
  const created = await api(env).post("/vehicle/", { label: "Telemetry car" }, driver.accessToken);
  if (created.status !== 200) throw new Error(`vehicle create failed: ${created.status} ${created.text}`);
  return { ...driver, vehicleId: created.body.vehicle.vehicleId as number };
}

/**
 * GET …/data/?mostRecentOnly=true on any service (`apiBase`: its base URL and `/sandbox/api` or
 * `/v1/api`): the vehicle's newest point of each key, as answered.
 */
export async function newestOfEachKey(apiBase: string, vehicleId: number, token: string) {
  const r = await request("GET", `${apiBase}/vehicle/${vehicleId}/data/?mostRecentOnly=true`, { token });
  expect(r.status, r.text).toBe(200);
  return r.body.data as { id: number; key: string; value: string; timestamp: string }[];
}
