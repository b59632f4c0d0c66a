import { describe, expect, it } from "vitest";
import { api, createDriver, type Reply } from "@/test/helpers/api";
import { apps } from "@/test/helpers/fixtures";
import { dataSet } from "@/test/helpers/telemetry";

// Mileage is exact decimal arithmetic (docs/api.md#accounts-and-vehicles): 0.1 + 0.2 is 0.3 on
// the wire, never 0.30000000000000004. Answers are judged on their text, where binary noise shows.

const secondsAgo = (s: number) => new Date(Math.floor(Date.now() / 1000) * 1000 - s * 1000);

async function driverWithVehicle(body: Record<string, unknown>) {
  const driver = await createDriver("sandbox", apps().main.sandbox);
  const created = await api("sandbox").post("/vehicle/", { label: "Mileage car", ...body }, driver.accessToken);
  expect(created.status, created.text).toBe(200);
  const vehicleId = created.body.vehicle.vehicleId as number;
  const token = driver.accessToken;
  return {
    token,
    vehicleId,
    created,
    post: async (sets: unknown) => {
      const res = await api("sandbox").post(`/vehicle/${vehicleId}/dataSet/`, sets, token);
      expect(res.status, res.text).toBe(200);
      return res;
    },
    vehicle: () => api("sandbox").get(`/vehicle/${vehicleId}`, token),
    list: () => api("sandbox").get("/vehicle/", token),
  };
}

/** The `"mileage":…` members of an answer's text, as written. */
const mileagesIn = (reply: Reply) => [...reply.text.matchAll(/"mileage":([^,}\]]*)/g)].map((m) => m[1]);

/** ON, RUNNING, OFF with GEN_TRIP_MILEAGE, a second apart from `start` seconds ago. */
const trip = (start: number, miles: string, off: { key: string; value: string }[] = []) => [
  dataSet(secondsAgo(start), "ON"),
  dataSet(secondsAgo(start - 1), "RUNNING"),
  dataSet(secondsAgo(start - 2), "OFF", [{ key: "GEN_TRIP_MILEAGE", value: miles }, ...off]),
];

describe("mileage is exact", () => {
  it('a vehicle at 0.1 that finishes a trip of GEN_TRIP_MILEAGE "0.2" reads "mileage":0.3, the trip 0.2', async () => {
    const car = await driverWithVehicle({ mileage: 0.1 });
    expect(mileagesIn(car.created)).toEqual(["0.1"]);
    // One data set per post, as a device sends them.
    for (const set of trip(60, "0.2")) await car.post(set);

    const vehicle = await car.vehicle();
    expect(mileagesIn(vehicle)).toEqual(["0.3"]);
    expect(vehicle.text).toContain('"mileage":0.3,');
    expect(mileagesIn(await car.list())).toEqual(["0.3"]);
    const trips = await api("sandbox").get(`/vehicle/${car.vehicleId}/trip/`, car.token);
    expect(mileagesIn(trips)).toEqual(["0.2"]);
    const one = await api("sandbox").get(`/vehicle/${car.vehicleId}/trip/${trips.body.trip[0].id}`, car.token);
    expect(mileagesIn(one)).toEqual(["0.2"]);
    const points = await api("sandbox").get(`/vehicle/${car.vehicleId}/data/?key=GEN_TRIP_MILEAGE`, car.token);
    expect(points.body.data).toEqual([expect.objectContaining({ value: "0.2", translatedValue: "0 miles" })]);
  });

  it('an odometer reading of "160854.7" replaces the mileage exactly, then a trip adds to it', async () => {
    const car = await driverWithVehicle({ mileage: "0.3" });
    const odometer = await car.post(dataSet(secondsAgo(90), "OFF", [{ key: "GEN_ODOMETER", value: "160854.7" }]));
    expect(odometer.body.dataSet.datum).toEqual([
      expect.objectContaining({ value: "160854.7", translatedValue: "160855 miles" }),
    ]);
    expect(mileagesIn(await car.vehicle())).toEqual(["160854.7"]);
    await car.post(trip(60, "2.3"));
    expect(mileagesIn(await car.vehicle())).toEqual(["160857"]);
    await car.post(trip(30, "0.001"));
    expect(mileagesIn(await car.vehicle())).toEqual(["160857.001"]);
  });

  it("ten trips of 0.1 make exactly 1, posted in one batch or set by set", async () => {
    const batch = await driverWithVehicle({});
    await batch.post(Array.from({ length: 10 }, (_, i) => trip(300 - i * 3, "0.1")).flat());
    expect(mileagesIn(await batch.vehicle())).toEqual(["1"]);
    const trips = await api("sandbox").get(`/vehicle/${batch.vehicleId}/trip/`, batch.token);
    expect(mileagesIn(trips)).toEqual(Array(10).fill("0.1"));

    const single = await driverWithVehicle({ mileage: "112.5" });
    for (let i = 0; i < 10; i++) for (const set of trip(300 - i * 3, "0.01")) await single.post(set);
    expect(mileagesIn(await single.vehicle())).toEqual(["112.6"]);
  });

  it('numeric strings and numbers: created with "0.1", updated to "10.25", more decimals rounded to the thousandth', async () => {
    const car = await driverWithVehicle({ mileage: "0.1" });
    expect(mileagesIn(car.created)).toEqual(["0.1"]);
    const updated = await api("sandbox").post(`/vehicle/${car.vehicleId}`, { mileage: "10.25" }, car.token);
    expect(updated.status, updated.text).toBe(200);
    expect(mileagesIn(updated)).toEqual(["10.25"]);
    expect(mileagesIn(await car.vehicle())).toEqual(["10.25"]);
    expect(mileagesIn(await car.list())).toEqual(["10.25"]);

    expect(mileagesIn(await api("sandbox").post(`/vehicle/${car.vehicleId}`, { mileage: 10.2545 }, car.token))).toEqual(
      ["10.255"],
    );
    expect(
      mileagesIn(await api("sandbox").post(`/vehicle/${car.vehicleId}`, { mileage: 0.1 + 0.2 }, car.token)),
    ).toEqual(["0.3"]);
    // An echo of the vehicle read before updates nothing.
    const read = (await car.vehicle()).body.vehicle;
    expect(mileagesIn(await api("sandbox").post(`/vehicle/${car.vehicleId}`, read, car.token))).toEqual(["0.3"]);
  });

  it("a GEN_TRIP_MILEAGE or GEN_ODOMETER beyond 10,000,000 miles is kept as received but changes no mileage", async () => {
    const car = await driverWithVehicle({ mileage: 5 });
    const far = "123456789012345678901234567890";
    const off = await car.post(trip(60, far, [{ key: "GEN_ODOMETER", value: far }]));
    expect(
      off.body.dataSet
        .at(-1)
        .datum.map((d: { value: string; translatedValue: string }) => [d.value, d.translatedValue]),
    ).toEqual([
      [far, `${far} miles`],
      [far, `${far} miles`],
    ]);
    expect(mileagesIn(await car.vehicle())).toEqual(["5"]);
    expect(mileagesIn(await api("sandbox").get(`/vehicle/${car.vehicleId}/trip/`, car.token))).toEqual(["null"]);
  });
});
