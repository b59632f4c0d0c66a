// @module-tag embedded
import { afterAll, beforeAll, expect, it } from "vitest";
import { startApp, type RunningApp } from "@/test/helpers/processes";
import { DEMO } from "@/server/surfaces/demo/seed";
import { parseDateTime } from "@/common/http/datetime";

// What a newcomer sees after `npm start` (the front door: README.md): the demo
// car moving with a mileage that grows, notifications from the demo app's subscriptions within a
// minute, a finished trip to replay, and vehicles named from their VINs. A service of its own, on
// the embedded database with demo data, as `npm start` runs it.

let service: RunningApp;
let token: string;

beforeAll(async () => {
  service = await startApp({ name: "demo", seedDemo: true });
  token = await demoToken();
}, 240_000);

afterAll(async () => {
  await service?.stop();
});

async function demoToken(): Promise<string> {
  const form = new URLSearchParams({
    grant_type: "client_credentials",
    client_id: DEMO.sandbox.clientId,
    client_secret: DEMO.sandbox.clientSecret,
  });
  const tokenRes = await fetch(`${service.baseUrl}/sandbox/oauth/token`, { method: "POST", body: form });
  return ((await tokenRes.json()) as { access_token: string }).access_token;
}
const get = async (path: string) =>
  (await (
    await fetch(`${service.baseUrl}/sandbox/api${path}`, { headers: { Authorization: `Bearer ${token}` } })
  ).json()) as any;

type Vehicle = {
  vehicleId: number;
  label: string;
  name: string;
  vin: string;
  mileage: number;
  running: boolean;
  lastWaypoint: { latitude: number; longitude: number } | null;
};
const demoVehicles = async () =>
  ((await get("/vehicle/")).vehicle as Vehicle[]).filter(
    (v) => v.label === DEMO.vehicles.car.label || v.label === DEMO.vehicles.van.label,
  );

it(
  "the demo car drives, its mileage grows as it goes, and its subscriptions notify within a minute of start",
  { timeout: 180_000 },
  async () => {
    const subscriptions = (await get(`/vehicle/${DEMO.deviceSerial}/eventSubscription/`)).subscriptions as {
      _type: string;
    }[];
    expect(subscriptions.map((s) => s._type).sort()).toEqual(["GEOFENCE", "IGNITIONSTATUS", "WAYPOINT"]);

    const deadline = Date.now() + 60_000;
    let types: string[] = [];
    const positions = new Set<string>();
    const mileages = new Set<number>();
    while (Date.now() < deadline) {
      const vehicle = (await get(`/vehicle/${DEMO.deviceSerial}`)).vehicle as Vehicle;
      if (vehicle.lastWaypoint) positions.add(`${vehicle.lastWaypoint.latitude},${vehicle.lastWaypoint.longitude}`);
      // Mid-lap, from the simulated device's GEN_ODOMETER (a lap's end would also add its mileage).
      if (vehicle.running) mileages.add(vehicle.mileage);
      types = (
        (await get(`/vehicle/${DEMO.deviceSerial}/eventNotification/`)).notifications as { _type: string }[]
      ).map((n) => n._type);
      if (positions.size >= 2 && mileages.size >= 2 && types.includes("IGNITIONSTATUS") && types.includes("WAYPOINT"))
        break;
      await new Promise((r) => setTimeout(r, 2000));
    }
    expect(positions.size, "the car moved").toBeGreaterThanOrEqual(2);
    expect(Math.min(...mileages), "the mileage starts from the seeded one").toBeGreaterThanOrEqual(
      DEMO.vehicles.car.mileage,
    );
    expect(mileages.size, "the mileage grew while the car was running").toBeGreaterThanOrEqual(2);
    expect(types).toEqual(expect.arrayContaining(["IGNITIONSTATUS", "WAYPOINT"]));
  },
);

it(
  "the demo vehicles are named YEAR MAKE MODEL from their VINs; the van has one finished trip to replay; a restart adds nothing",
  { timeout: 240_000 },
  async () => {
    const vehicles = await demoVehicles();
    expect(vehicles.map((v) => [v.label, v.vin, v.name]).sort()).toEqual([
      [DEMO.vehicles.car.label, DEMO.vehicles.car.vin, "2019 Honda Civic"],
      [DEMO.vehicles.van.label, DEMO.vehicles.van.vin, "2020 Ford Transit"],
    ]);

    const van = vehicles.find((v) => v.label === DEMO.vehicles.van.label)!;
    const trips = await get(`/vehicle/${van.vehicleId}/trip/`);
    expect(trips.totalRecords).toBe(1);
    const trip = (trips.trip as { id: number; startTime: string; endTime: string | null; mileage: number }[])[0]!;
    expect(trip.endTime).not.toBeNull();
    expect(trip.mileage).toBeGreaterThan(3);
    // In the past, and counted once in the van's mileage.
    expect(parseDateTime(trip.startTime)!.getTime()).toBeLessThan(Date.now() - 3_600_000);
    // Exactly: the sum of the two decimals (in whole hundredths here), with no binary noise.
    expect(van.mileage).toBe((DEMO.vehicles.van.mileage * 100 + Math.round(trip.mileage * 100)) / 100);
    const one = await get(`/vehicle/${van.vehicleId}/trip/${trip.id}`);
    expect(one.trip.data.length).toBeGreaterThan(10);
    const simulations = (await get(`/vehicle/${van.vehicleId}/simulation/`)).simulation as {
      status: string;
      mode: string;
      tripId: number;
    }[];
    expect(simulations).toEqual([expect.objectContaining({ status: "finished", mode: "instant", tripId: trip.id })]);

    await service.restart();
    token = await demoToken();
    expect((await get(`/vehicle/${van.vehicleId}/trip/`)).totalRecords).toBe(1);
    expect((await get(`/vehicle/${van.vehicleId}/simulation/`)).simulation).toHaveLength(1);
    expect((await demoVehicles()).map((v) => v.name).sort()).toEqual(["2019 Honda Civic", "2020 Ford Transit"]);
  },
);
