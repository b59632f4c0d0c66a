import { describe, expect, it } from "vitest";
import { api, request, apiBase } from "@/test/helpers/api";
import { expectApiError, expectFieldErrors, DATE_TIME } from "@/test/helpers/fixtures";
import { driverWithVehicle } from "@/test/helpers/telemetry";

// The sandbox traffic simulator over real HTTP: runs drive the real ingest path, so their trips,
// data sets and vehicle state are read back through the device-data API.

const sandbox = api("sandbox");
const DOWNTOWN = { latitude: 39.9612, longitude: -83.0007 };
const CLINTONVILLE = { latitude: 40.0301, longitude: -83.0195 };
const CLEVELAND = { latitude: 41.4993, longitude: -81.6944 };

async function until<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe("instant backfill", () => {
  it("POST …/simulation/ mode instant with start and end → a finished run, one trip readable via /trip/ with the route's mileage", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const res = await sandbox.post(
      `/vehicle/${vehicleId}/simulation/`,
      {
        mode: "instant",
        start: DOWNTOWN,
        end: CLINTONVILLE,
        seed: 3,
        collectionPeriod: 30,
        events: [{ at: 0.5, key: "gen_dtc", value: "P0301" }],
      },
      token,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.totalRecords).toBeNull();
    const run = res.body.simulation;
    expect(run).toMatchObject({
      vehicleId,
      mode: "instant",
      status: "finished",
      progress: 1,
      network: "columbus_oh",
      seed: 3,
      collectionPeriod: 30,
    });
    expect(run.attribution).toContain("OpenStreetMap contributors");
    expect(run.createdAt).toMatch(DATE_TIME);
    expect(run.routeLengthMiles).toBeGreaterThan(4);
    expect(run.dataSetCount).toBeGreaterThan(5);

    const trips = await sandbox.get(`/vehicle/${vehicleId}/trip/`, token);
    expect(trips.body.totalRecords).toBe(1);
    const [trip] = trips.body.trip;
    expect(trip.id).toBe(run.tripId);
    expect(trip.endTime).not.toBeNull();
    expect(Math.abs(trip.mileage - run.routeLengthMiles) / run.routeLengthMiles).toBeLessThan(0.02);
    expect(trip.startWaypoint.latitude).toBeCloseTo(DOWNTOWN.latitude, 2);
    expect(trip.endWaypoint.latitude).toBeCloseTo(CLINTONVILLE.latitude, 2);

    const one = await sandbox.get(`/vehicle/${vehicleId}/trip/${trip.id}`, token);
    expect(one.body.trip.data).toHaveLength(run.dataSetCount);
    const kinds = one.body.trip.data.map((d: { ignitionStatus: string }) => d.ignitionStatus);
    expect(kinds.at(-1)).toBe("ON");
    expect(kinds[0]).toBe("OFF");

    const vehicle = (await sandbox.get(`/vehicle/${vehicleId}`, token)).body.vehicle;
    expect(vehicle.running).toBe(false);
    expect(vehicle.mileage).toBeCloseTo(trip.mileage, 5);
    expect(vehicle.lastWaypoint.latitude).toBeCloseTo(CLINTONVILLE.latitude, 2);

    const dtc = await sandbox.get(`/vehicle/${vehicleId}/data/?key=GEN_DTC`, token);
    expect(dtc.body.data.map((d: { value: string }) => d.value)).toEqual(["P0301"]);
    const speeds = await sandbox.get(`/vehicle/${vehicleId}/data/?key=GEN_SPEED&searchLimit=500`, token);
    expect(Math.max(...speeds.body.data.map((d: { value: string }) => Number(d.value)))).toBeGreaterThan(20);
  });

  it("a trip of more than 500 data sets is posted in batches of 500 and makes one trip", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const res = await sandbox.post(
      `/vehicle/${vehicleId}/simulation/`,
      { mode: "instant", templateId: "columbus-osu-worthington", collectionPeriod: 1, seed: 4, engineData: false },
      token,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.simulation.dataSetCount).toBeGreaterThan(1000);
    const sets = await sandbox.get(`/vehicle/${vehicleId}/dataSet/?searchLimit=1`, token);
    expect(sets.body.totalRecords).toBe(res.body.simulation.dataSetCount);
    const trips = await sandbox.get(`/vehicle/${vehicleId}/trip/`, token);
    expect(trips.body.totalRecords).toBe(1);
    expect(trips.body.trip[0].endTime).not.toBeNull();
  });

  it("the same seed on the same route gives the same data; startTime places the trip in the past", async () => {
    const a = await driverWithVehicle();
    const b = await driverWithVehicle();
    const body = {
      mode: "instant",
      templateId: "dc-mall-loop",
      seed: 99,
      collectionPeriod: 60,
      startTime: "20260101T120000+0000",
    };
    for (const d of [a, b])
      expect((await sandbox.post(`/vehicle/${d.vehicleId}/simulation/`, body, d.accessToken)).status).toBe(200);
    const values = async (d: typeof a) =>
      (await sandbox.get(`/vehicle/${d.vehicleId}/data/?searchLimit=500&sortOrder=asc`, d.accessToken)).body.data.map(
        (p: { timestamp: string; key: string; value: string }) => `${p.timestamp} ${p.key} ${p.value}`,
      );
    const first = await values(a);
    expect(first[0]).toMatch(/^20260101T120000\+0000 GEN_WAYPOINT /);
    expect(await values(b)).toEqual(first);
  });
});

describe("real-time runs", () => {
  it("start, list with progress, read, stop → the vehicle parks (OFF) and the trip closes", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const started = await sandbox.post(
      `/vehicle/${vehicleId}/simulation/`,
      { mode: "realtime", templateId: "columbus-downtown-loop", speedUp: 10, collectionPeriod: 10, seed: 5 },
      token,
    );
    expect(started.status, started.text).toBe(200);
    const run = started.body.simulation;
    expect(run).toMatchObject({
      status: "running",
      mode: "realtime",
      speedUp: 10,
      templateId: "columbus-downtown-loop",
      endedAt: null,
    });

    const again = await sandbox.post(
      `/vehicle/${vehicleId}/simulation/`,
      { mode: "instant", start: DOWNTOWN, end: CLINTONVILLE },
      token,
    );
    expect(expectApiError(again, 409, "CANNOTPERSIST").fieldErrors).toEqual([
      expect.objectContaining({ fieldName: "vehicleId", errorCode: "UNIQUE" }),
    ]);

    const moving = await until(
      "three data sets",
      async () => (await sandbox.get(`/vehicle/${vehicleId}/simulation/${run.id}`, token)).body.simulation,
      (r) => r.dataSetCount >= 3,
    );
    expect(moving.progress).toBeGreaterThan(0);
    expect(moving.tripId).not.toBeNull();
    const vehicle = (await sandbox.get(`/vehicle/${vehicleId}`, token)).body.vehicle;
    expect(vehicle.running).toBe(true);

    const listed = await sandbox.get(`/vehicle/${vehicleId}/simulation/`, token);
    expect(listed.status).toBe(200);
    expect(listed.body.totalRecords).toBe(1);
    expect(listed.body.simulation[0]).toMatchObject({ id: run.id, status: "running" });

    const stop = await request("DELETE", `${apiBase("sandbox")}/vehicle/${vehicleId}/simulation/${run.id}/`, { token });
    expect(stop.status, stop.text).toBe(200);
    expect(stop.body).toEqual({ result: "OK", totalRecords: 1, actions: [] });

    const trip = await until(
      "the parked trip",
      async () => (await sandbox.get(`/vehicle/${vehicleId}/trip/`, token)).body.trip[0],
      (t) => t.endTime !== null,
    );
    expect(trip.id).toBe(moving.tripId);
    expect(trip.mileage).toBeGreaterThan(0);
    const parked = (await sandbox.get(`/vehicle/${vehicleId}`, token)).body.vehicle;
    expect(parked.running).toBe(false);
    const stopped = (await sandbox.get(`/vehicle/${vehicleId}/simulation/${run.id}`, token)).body.simulation;
    expect(stopped.status).toBe("stopped");
    expect(stopped.endedAt).toMatch(DATE_TIME);
    // Nothing more arrives after the OFF.
    const count = (await sandbox.get(`/vehicle/${vehicleId}/dataSet/?searchLimit=1`, token)).body.totalRecords;
    await new Promise((r) => setTimeout(r, 2500));
    expect((await sandbox.get(`/vehicle/${vehicleId}/dataSet/?searchLimit=1`, token)).body.totalRecords).toBe(count);
    expect(
      (await sandbox.get(`/vehicle/${vehicleId}/dataSet/?searchLimit=1`, token)).body.dataSet[0].ignitionStatus,
    ).toBe("OFF");

    // Stopping again is a no-op; a new run may start now.
    expect((await sandbox.del(`/vehicle/${vehicleId}/simulation/${run.id}`, token)).status).toBe(200);
    const next = await sandbox.post(
      `/vehicle/${vehicleId}/simulation/`,
      { mode: "instant", start: DOWNTOWN, end: CLINTONVILLE, startTime: "20260301T080000+0000" },
      token,
    );
    expect(next.status, next.text).toBe(200);
  });
});

describe("saved routes and templates", () => {
  it("templates list with geometry and attribution; one reads by id; an unknown one is 404", async () => {
    const { accessToken: token } = await driverWithVehicle();
    const list = await sandbox.get("/simulation/template/", token);
    expect(list.status).toBe(200);
    expect(list.body.template.length).toBeGreaterThanOrEqual(4);
    for (const t of list.body.template) {
      expect(t.attribution).toContain("© OpenStreetMap contributors");
      expect(t.geometry.length).toBeGreaterThan(10);
      expect(["columbus_oh", "washington_dc"]).toContain(t.network);
    }
    const one = await sandbox.get("/simulation/template/columbus-downtown-loop", token);
    expect(one.body.template).toMatchObject({ id: "columbus-downtown-loop", loop: true });
    expectApiError(await sandbox.get("/simulation/template/nowhere", token), 404, "NOT_FOUND");
  });

  it("a saved route belongs to its app: create, list, read, run by routeId; another app sees 404; delete", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const created = await sandbox.post(
      "/simulation/route/",
      {
        name: "Campus run",
        start: { latitude: 40.0015, longitude: -83.0145 },
        end: { latitude: 40.0301, longitude: -83.0195 },
      },
      token,
    );
    expect(created.status, created.text).toBe(200);
    const route = created.body.route;
    expect(route).toMatchObject({ name: "Campus run", network: "columbus_oh", loop: false });
    expect(route.attribution).toContain("OpenStreetMap");
    expect(route.lengthMiles).toBeGreaterThan(1);

    const list = await sandbox.get("/simulation/route/?searchLimit=500", token);
    expect(list.body.route.map((r: { id: number }) => r.id)).toContain(route.id);
    expect((await sandbox.get(`/simulation/route/${route.id}`, token)).body.route.geometry).toEqual(route.geometry);

    const run = await sandbox.post(
      `/vehicle/${vehicleId}/simulation/`,
      { mode: "instant", routeId: route.id, collectionPeriod: 20 },
      token,
    );
    expect(run.status, run.text).toBe(200);
    expect(run.body.simulation).toMatchObject({
      routeId: route.id,
      routeLengthMiles: route.lengthMiles,
      status: "finished",
    });

    const other = await driverWithVehicle("sandbox", "provider");
    expectApiError(await sandbox.get(`/simulation/route/${route.id}`, other.accessToken), 404, "NOT_FOUND");
    expectFieldErrors(
      await sandbox.post(
        `/vehicle/${other.vehicleId}/simulation/`,
        { mode: "instant", routeId: route.id },
        other.accessToken,
      ),
      { routeId: "INVALID" },
    );
    expectApiError(await sandbox.del(`/simulation/route/${route.id}`, other.accessToken), 404, "NOT_FOUND");

    expect((await sandbox.del(`/simulation/route/${route.id}`, token)).body).toEqual({
      result: "OK",
      totalRecords: 1,
      actions: [],
    });
    expectApiError(await sandbox.get(`/simulation/route/${route.id}`, token), 404, "NOT_FOUND");
    // The run keeps its geometry.
    expect(
      (await sandbox.get(`/vehicle/${vehicleId}/simulation/${run.body.simulation.id}`, token)).body.simulation.routeId,
    ).toBeNull();
  });
});

describe("who may simulate, and bad input", () => {
  it("production answers 403 FORBIDDEN on every simulator path", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle("production");
    const prod = api("production");
    expectApiError(
      await prod.post(
        `/vehicle/${vehicleId}/simulation/`,
        { mode: "instant", start: DOWNTOWN, end: CLINTONVILLE },
        token,
      ),
      403,
      "FORBIDDEN",
    );
    expectApiError(await prod.get(`/vehicle/${vehicleId}/simulation/`, token), 403, "FORBIDDEN");
    expectApiError(await prod.get("/simulation/template/", token), 403, "FORBIDDEN");
    expectApiError(
      await prod.post("/simulation/route/", { name: "x", start: DOWNTOWN, end: CLINTONVILLE }, token),
      403,
      "FORBIDDEN",
    );
    expect((await prod.get(`/vehicle/${vehicleId}/trip/`, token)).body.totalRecords).toBe(0);
  });

  it("another app's vehicle, an unknown vehicle and an unknown run are 404", async () => {
    const mine = await driverWithVehicle();
    const theirs = await driverWithVehicle("sandbox", "provider");
    expectApiError(
      await sandbox.post(
        `/vehicle/${theirs.vehicleId}/simulation/`,
        { mode: "instant", start: DOWNTOWN, end: CLINTONVILLE },
        mine.accessToken,
      ),
      404,
      "NOT_FOUND",
    );
    expectApiError(await sandbox.get(`/vehicle/${theirs.vehicleId}/simulation/`, mine.accessToken), 404, "NOT_FOUND");
    expectApiError(await sandbox.get(`/vehicle/999999999/simulation/`, mine.accessToken), 404, "NOT_FOUND");
    const run = await sandbox.post(
      `/vehicle/${theirs.vehicleId}/simulation/`,
      { mode: "instant", start: DOWNTOWN, end: CLINTONVILLE, collectionPeriod: 120 },
      theirs.accessToken,
    );
    expect(run.status, run.text).toBe(200);
    expectApiError(
      await sandbox.get(`/vehicle/${mine.vehicleId}/simulation/${run.body.simulation.id}`, mine.accessToken),
      404,
      "NOT_FOUND",
    );
    expectApiError(
      await sandbox.del(`/vehicle/${theirs.vehicleId}/simulation/${run.body.simulation.id}`, mine.accessToken),
      404,
      "NOT_FOUND",
    );
    expectApiError(await sandbox.get(`/vehicle/${mine.vehicleId}/simulation/abc`, mine.accessToken), 404, "NOT_FOUND");
    // A client-credentials token of the vehicle's app may drive it too.
    const client = await sandbox.get(`/vehicle/${theirs.vehicleId}/simulation/`, theirs.clientToken);
    expect(client.body.simulation).toHaveLength(1);
  });

  it("points outside the covered area → 400 with the field that is outside", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const path = `/vehicle/${vehicleId}/simulation/`;
    expectFieldErrors(await sandbox.post(path, { mode: "instant", start: CLEVELAND, end: CLINTONVILLE }, token), {
      start: "INVALID",
    });
    expectFieldErrors(await sandbox.post(path, { mode: "instant", start: DOWNTOWN, end: CLEVELAND }, token), {
      end: "INVALID",
    });
    expectFieldErrors(
      await sandbox.post(path, { mode: "instant", start: DOWNTOWN, end: { latitude: 38.9, longitude: -77.03 } }, token),
      { end: "INVALID" },
    );
    expectFieldErrors(await sandbox.post(path, { mode: "instant", route: [DOWNTOWN, CLEVELAND] }, token), {
      "route.1": "INVALID",
    });
    expectFieldErrors(
      await sandbox.post("/simulation/route/", { name: "far", start: CLEVELAND, end: DOWNTOWN }, token),
      { start: "INVALID" },
    );
    expect((await sandbox.get(`/vehicle/${vehicleId}/simulation/`, token)).body.totalRecords).toBe(0);
  });

  it("bad bodies → 400 VALIDATION naming each field", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const path = `/vehicle/${vehicleId}/simulation/`;
    const post = (body: unknown) => sandbox.post(path, body, token);
    expectFieldErrors(await post({ start: DOWNTOWN, end: CLINTONVILLE }), { mode: "REQUIRED" });
    expectFieldErrors(await post({ mode: "instant" }), { start: "INVALID" });
    expectFieldErrors(await post({ mode: "instant", start: DOWNTOWN }), { end: "REQUIRED" });
    expectFieldErrors(
      await post({ mode: "instant", start: DOWNTOWN, end: CLINTONVILLE, route: [DOWNTOWN, CLINTONVILLE] }),
      { route: "INVALID" },
    );
    expectFieldErrors(await post({ mode: "instant", route: [DOWNTOWN] }), { route: "INVALID" });
    expectFieldErrors(await post({ mode: "instant", start: { latitude: 91, longitude: 0 }, end: CLINTONVILLE }), {
      "start.latitude": "INVALID",
    });
    expectFieldErrors(await post({ mode: "realtime", start: DOWNTOWN, end: CLINTONVILLE, collectionPeriod: 0 }), {
      collectionPeriod: "INVALID",
    });
    expectFieldErrors(await post({ mode: "realtime", start: DOWNTOWN, end: CLINTONVILLE, speedUp: 61 }), {
      speedUp: "INVALID",
    });
    expectFieldErrors(
      await post({ mode: "realtime", start: DOWNTOWN, end: CLINTONVILLE, speedUp: 20, collectionPeriod: 10 }),
      { speedUp: "INVALID" },
    );
    expectFieldErrors(
      await post({ mode: "realtime", start: DOWNTOWN, end: CLINTONVILLE, startTime: "20260101T000000+0000" }),
      { startTime: "INVALID" },
    );
    expectFieldErrors(await post({ mode: "instant", start: DOWNTOWN, end: CLINTONVILLE, startTime: "yesterday" }), {
      startTime: "INVALID",
    });
    expectFieldErrors(
      await post({ mode: "instant", start: DOWNTOWN, end: CLINTONVILLE, events: [{ at: 1.5, key: "GEN_DTC" }] }),
      { "events.0.at": "INVALID" },
    );
    expectFieldErrors(
      await post({ mode: "instant", start: DOWNTOWN, end: CLINTONVILLE, events: [{ at: 0.5, key: "GEN_SPEED" }] }),
      { "events.0.key": "INVALID" },
    );
    expectFieldErrors(await post({ mode: "instant", templateId: "nowhere" }), { templateId: "INVALID" });
    expectFieldErrors(await post({ mode: "instant", routeId: 2_000_000_000 }), { routeId: "INVALID" });
    // A trip that would end in the future.
    const future = new Date(Date.now() - 60_000)
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d{3}Z$/, "+0000");
    expectFieldErrors(await post({ mode: "instant", start: DOWNTOWN, end: CLINTONVILLE, startTime: future }), {
      startTime: "INVALID",
    });
    expectApiError(
      await request("POST", `${apiBase("sandbox")}${path}`, {
        token,
        body: "{not json",
        headers: { "Content-Type": "application/json" },
      }),
      400,
      "VALIDATION",
    );
    expect((await sandbox.get(path, token)).body.totalRecords).toBe(0);
  });

  it("the OpenAPI document lists the simulator operations", async () => {
    const doc = await request("GET", `${apiBase("sandbox")}/openapi.json`);
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        "/vehicle/{vehicleId}/simulation/",
        "/vehicle/{vehicleId}/simulation/{runId}",
        "/simulation/route/",
        "/simulation/route/{routeId}",
        "/simulation/template/",
        "/simulation/template/{templateId}",
      ]),
    );
    expect(Object.keys(doc.body.paths["/vehicle/{vehicleId}/simulation/{runId}"])).toEqual(["get", "delete"]);
  });
});
