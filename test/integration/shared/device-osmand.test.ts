// @module-tag embedded
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactOf, eventually, readAs, uniqueImei, vehicleForDevice } from "@/test/helpers/devices";
import { uniqueDevice } from "@/test/helpers/fixtures";
import { startTestGateway, type TestGateway } from "@/test/helpers/gateway";
import { wireTime } from "@/test/helpers/telemetry";

// OsmAnd over real HTTP on loopback (docs/devices.md#osmand), as Traccar Client and other phone apps
// send it, against the gateway's listener in this process and the suite's database, read back over
// the API: the three forms (query string, form body, Traccar Client 9's JSON), speed in knots (m/s
// in the JSON), 200 with an empty body only once stored, 400 for an unknown id or a malformed
// request. Ingest underneath, and the embedded pass's one socket test: both databases (the tag).

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(async () => {
  await gw.stop();
});

const osmand = (path: string, init: RequestInit = {}) =>
  fetch(`http://127.0.0.1:${gw.port("sandbox", "osmand")}${path}`, init);
const seconds = (d: Date) => Math.floor(d.getTime() / 1000);
const sets = async (car: { accessToken: string; vehicleId: number }) =>
  (await readAs("sandbox", car.accessToken, `/vehicle/${car.vehicleId}/dataSet/?sortOrder=asc`)).dataSet as {
    timestamp: string;
    ignitionStatus: string;
    datum: { key: string; value: string }[];
  }[];
const value = (set: { datum: { key: string; value: string }[] }, key: string) =>
  set.datum.find((d) => d.key === key)?.value;

describe("OsmAnd over HTTP", () => {
  it("Traccar Client's query string: 200 with an empty body once stored, speed read as knots, the ignition as the status", async () => {
    const id = uniqueImei();
    const car = await vehicleForDevice("sandbox", id);
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    const res = await osmand(
      `/?id=${id}&timestamp=${seconds(at)}&lat=40.7232948571&lon=-74.0061408571&bearing=7.2&speed=40&ignition=true&rpm=933`,
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
    const [set] = await sets(car);
    expect(set).toMatchObject({ timestamp: wireTime(at), ignitionStatus: "ON" });
    expect(value(set!, "GEN_WAYPOINT")).toBe("40.723295,-74.006141");
    expect(value(set!, "GEN_SPEED")).toBe("46"); // 40 knots
    expect(value(set!, "DEVICE_RPM")).toBe("933");
    expect(await contactOf("sandbox", id)).toMatchObject({ protocol: "osmand", records_on_day: 1, ignition: true });
  });

  it("a form body, by POST; a resent request is answered 200 again and stored once", async () => {
    const id = uniqueDevice();
    const car = await vehicleForDevice("sandbox", id);
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 30_000);
    const body = new URLSearchParams({
      deviceid: id,
      timestamp: at.toISOString(),
      lat: "52.5",
      lon: "13.4",
      batt: "87",
    });
    for (let i = 0; i < 2; i++) {
      const res = await osmand("/", {
        method: "POST",
        body: body.toString(),
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      });
      expect(res.status).toBe(200);
    }
    const stored = await sets(car);
    expect(stored).toHaveLength(1);
    expect(value(stored[0]!, "DEVICE_BATTERY_LEVEL")).toBe("87");
  });

  it("Traccar Client 9's JSON body: speed in m/s, and without an ignition its trip comes from motion", async () => {
    const id = uniqueDevice();
    const car = await vehicleForDevice("sandbox", id);
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 20_000);
    const location = {
      timestamp: at.toISOString(),
      coords: { latitude: 37.4219983, longitude: -122.084, speed: 10, heading: 90, accuracy: 5, altitude: 5 },
      is_moving: true,
      battery: { level: 0.79, is_charging: false },
    };
    const res = await osmand("/", {
      method: "POST",
      body: JSON.stringify({ location, device_id: id }),
      headers: { "Content-Type": "application/json" },
    });
    expect(res.status).toBe(200);
    const [set] = await sets(car);
    expect(set!.ignitionStatus).toBe("ON");
    expect(value(set!, "GEN_SPEED")).toBe("22.4"); // 10 m/s
    expect(value(set!, "DEVICE_BATTERY_LEVEL")).toBe("79");
  });

  it("an id no vehicle names, a request without an id, half a position: 400 with the reason, nothing stored", async () => {
    const unknown = uniqueDevice();
    const refused = await osmand(`/?id=${unknown}&lat=1&lon=2`);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toBe("no vehicle has this deviceId");
    expect(await contactOf("sandbox", unknown)).toMatchObject({ protocol: "osmand", unknown_contacts: 1 });

    const id = uniqueDevice();
    const car = await vehicleForDevice("sandbox", id);
    const noId = await osmand("/?lat=1&lon=2");
    expect(noId.status).toBe(400);
    expect(await noId.text()).toBe("no id or deviceid");
    const half = await osmand(`/?id=${id}&lat=1`);
    expect(half.status).toBe(400);
    expect(await half.text()).toBe("lat without lon, or lon without lat");
    const ahead = await osmand(`/?id=${id}&lat=1&lon=2&timestamp=${seconds(new Date()) + 25 * 3600}`);
    expect(ahead.status).toBe(400);
    expect(await sets(car)).toHaveLength(0);
  });

  it("a refused request of a vehicle's phone is kept as its last refusal; one of an id no vehicle names is not", async () => {
    const id = uniqueDevice();
    await vehicleForDevice("sandbox", id);
    const outside = await osmand(`/?id=${id}&lat=95&lon=2`);
    expect(outside.status).toBe(400);
    const reason = await outside.text();
    await eventually(
      () => contactOf("sandbox", id),
      (c) => c?.last_refusal_reason === reason && c.protocol === "osmand",
    );
    const json = await osmand("/", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        device_id: id,
        location: { timestamp: "not a time", coords: { latitude: 1, longitude: 2 } },
      }),
    });
    expect(json.status).toBe(400);
    await eventually(
      () => contactOf("sandbox", id),
      (c) => c?.last_refusal_reason === "location.timestamp is not a time",
    );

    // An id no vehicle names: its malformed request leaves nothing; a well-formed one is its
    // unknown contact, whose reason no refusal written later replaces.
    const stranger = uniqueDevice();
    expect((await osmand(`/?id=${stranger}&lat=95&lon=2`)).status).toBe(400);
    expect((await osmand(`/?id=${stranger}&lat=1&lon=2`)).status).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await contactOf("sandbox", stranger)).toMatchObject({
      unknown_contacts: 1,
      last_refusal_reason: "no vehicle has this deviceId",
    });
  });

  it("a body past 64 KiB is answered 413 and the connection closed", async () => {
    const res = await osmand("/", { method: "POST", body: "x".repeat(70_000) });
    expect(res.status).toBe(413);
    expect(res.headers.get("connection")).toBe("close");
  });

  it("the production listener answers for production's vehicles only", async () => {
    const id = uniqueDevice();
    await vehicleForDevice("sandbox", id);
    const res = await fetch(`http://127.0.0.1:${gw.port("production", "osmand")}/?id=${id}&lat=1&lon=2`);
    expect(res.status).toBe(400);
  });
});
