import { describe, expect, it } from "vitest";
import { api, apiBase, clientToken, testSql, type Env } from "@/test/helpers/api";
import { addVehicle, apps, expectApiError, DATE_TIME } from "@/test/helpers/fixtures";
import {
  dataSet,
  driverWithVehicle,
  newestOfEachKey,
  simulatedTrip,
  waypoint,
  wireTime,
} from "@/test/helpers/telemetry";

// Data-set ingest over real HTTP: trips, state, mileage, validation, who may post, VIN decoding.
// On the embedded database too: the tests tagged `embedded`, those of ingest's writes and reads
// (validation, permissions and decoding answer the same there:
// docs/testing.md#which-tests-run-on-the-embedded-database).

const minutesAgo = (m: number) => new Date(Math.floor(Date.now() / 1000) * 1000 - m * 60_000);

describe("a whole trip posted as the sandbox simulator posts it", { tags: ["embedded"] }, () => {
  it("ON, RUNNING a minute apart, OFF with GEN_TRIP_MILEAGE → one trip, vehicle state, data sets and points", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const start = minutesAgo(60);
    const sets = simulatedTrip(start, { points: 10, mileage: 4.2 });
    for (const set of sets) {
      const res = await api("sandbox").post(`/vehicle/${vehicleId}/dataSet/`, set, token);
      expect(res.status, res.text).toBe(200);
      expect(res.body.dataSet).toMatchObject({
        vehicleId,
        timestamp: set.timestamp,
        ignitionStatus: set.ignitionStatus,
      });
      expect(res.body.totalRecords).toBeNull();
    }

    const trips = await api("sandbox").get(`/vehicle/${vehicleId}/trip/`, token);
    expect(trips.status).toBe(200);
    expect(trips.body.totalRecords).toBe(1);
    const [trip] = trips.body.trip;
    expect(trip).toMatchObject({
      startTime: wireTime(start),
      endTime: wireTime(new Date(start.getTime() + 11 * 60_000)),
      mileage: 4.2,
      startWaypoint: { latitude: 39.9612, longitude: -82.9988 },
      endWaypoint: { latitude: 39.9712, longitude: -82.9888 },
    });
    expect(trip).not.toHaveProperty("data");

    const one = await api("sandbox").get(`/vehicle/${vehicleId}/trip/${trip.id}`, token);
    expect(one.body.trip.data).toHaveLength(12);
    const times = one.body.trip.data.map((d: { timestamp: string }) => d.timestamp);
    expect(times).toEqual([...times].sort().reverse());

    const vehicle = (await api("sandbox").get(`/vehicle/${vehicleId}`, token)).body.vehicle;
    expect(vehicle).toMatchObject({
      running: false,
      mileage: 4.2,
      lastWaypoint: {
        latitude: 39.9712,
        longitude: -82.9888,
        timestamp: wireTime(new Date(start.getTime() + 11 * 60_000)),
      },
    });
    expect(vehicle.lastRunningTimestamp).toBe(wireTime(new Date(start.getTime() + 10 * 60_000)));

    const dataSets = await api("sandbox").get(`/vehicle/${vehicleId}/dataSet/?searchLimit=5`, token);
    expect(dataSets.body.totalRecords).toBe(12);
    expect(dataSets.body.dataSet).toHaveLength(5);
    expect(dataSets.body.dataSet[0].ignitionStatus).toBe("OFF");
    expect(dataSets.body.actions.map((a: { name: string }) => a.name)).toEqual(["next"]);

    const speeds = await api("sandbox").get(`/vehicle/${vehicleId}/data/?key=gen_speed`, token);
    expect(speeds.body.totalRecords).toBe(10);
    expect(speeds.body.data[0]).toMatchObject({
      key: "GEN_SPEED",
      value: "30",
      translatedValue: "30.0 mph",
      vehicleId,
    });
    expect(speeds.body.data[0].timestamp).toMatch(DATE_TIME);

    const latest = await api("sandbox").get(`/vehicle/${vehicleId}/data/?mostRecentOnly=true`, token);
    const byKey = Object.fromEntries(latest.body.data.map((d: { key: string; value: string }) => [d.key, d.value]));
    expect(byKey).toEqual({
      GEN_HEADING: "45",
      GEN_SPEED: "30",
      GEN_TRIP_MILEAGE: "4.2",
      GEN_VOLTAGE: "13.9",
      GEN_WAYPOINT: "39.9712,-82.9888",
    });
    // One point a key, by key, each whole: the same fields as the paged list's.
    expect(latest.body.data.map((d: { key: string }) => d.key)).toEqual([
      "GEN_HEADING",
      "GEN_SPEED",
      "GEN_TRIP_MILEAGE",
      "GEN_VOLTAGE",
      "GEN_WAYPOINT",
    ]);
    const all = await api("sandbox").get(`/vehicle/${vehicleId}/data/?searchLimit=100`, token);
    for (const point of latest.body.data) expect(all.body.data).toContainEqual(point);
  });

  it("the same trip as one shuffled batch → the same trip, answered in timestamp order", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const start = minutesAgo(120);
    const sets = simulatedTrip(start, { points: 20, mileage: 7.6 });
    // Out of order: odd positions first, each half reversed.
    const shuffled = [...sets.filter((_, i) => i % 2 === 1).reverse(), ...sets.filter((_, i) => i % 2 === 0).reverse()];
    const res = await api("sandbox").post(`/vehicle/${vehicleId}/dataSet/`, shuffled, token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.totalRecords).toBe(22);
    expect(res.body.dataSet.map((d: { timestamp: string }) => d.timestamp)).toEqual(sets.map((s) => s.timestamp));
    const tripIds = new Set(res.body.dataSet.map((d: { tripId: number }) => d.tripId));
    expect(tripIds.size).toBe(1);
    expect(res.body.dataSet[1].datum.map((d: { id: number; key: string }) => d.key)).toEqual([
      "GEN_WAYPOINT",
      "GEN_SPEED",
      "GEN_HEADING",
    ]);
    expect(res.body.dataSet[1].datum.every((d: { id: number }) => Number.isInteger(d.id))).toBe(true);

    const trips = await api("sandbox").get(`/vehicle/${vehicleId}/trip/?includeData=true`, token);
    expect(trips.body.trip).toHaveLength(1);
    expect(trips.body.trip[0]).toMatchObject({ mileage: 7.6 });
    expect(trips.body.trip[0].data).toHaveLength(22);
    // The trip's data is serialized by its own query (PostgreSQL formats the times): it must be
    // exactly what the data set reads say.
    const listed = await api("sandbox").get(`/vehicle/${vehicleId}/dataSet/?searchLimit=50`, token);
    expect(trips.body.trip[0].data).toEqual(listed.body.dataSet);
    expect((await api("sandbox").get(`/vehicle/${vehicleId}`, token)).body.vehicle.mileage).toBe(7.6);
  });
});

describe("trip segmentation", { tags: ["embedded"] }, () => {
  it("an ON while a trip is open closes the old trip at its last data set first", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const t0 = minutesAgo(30);
    const at = (m: number) => new Date(t0.getTime() + m * 60_000);
    const res = await api("sandbox").post(
      `/vehicle/${vehicleId}/dataSet/`,
      [dataSet(at(0), "ON"), dataSet(at(1), "RUNNING"), dataSet(at(5), "ON"), dataSet(at(6), "OFF")],
      token,
    );
    expect(res.status, res.text).toBe(200);
    const trips = (await api("sandbox").get(`/vehicle/${vehicleId}/trip/?sortOrder=asc`, token)).body.trip;
    expect(trips.map((t: { startTime: string; endTime: string }) => [t.startTime, t.endTime])).toEqual([
      [wireTime(at(0)), wireTime(at(1))],
      [wireTime(at(5)), wireTime(at(6))],
    ]);
  });

  it("a RUNNING with no open trip opens one; an OFF with none belongs to no trip", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const t0 = minutesAgo(20);
    const at = (m: number) => new Date(t0.getTime() + m * 60_000);
    const off = await api("sandbox").post(`/vehicle/${vehicleId}/dataSet/`, dataSet(at(0), "OFF"), token);
    expect(off.body.dataSet.tripId).toBeNull();
    const running = await api("sandbox").post(`/vehicle/${vehicleId}/dataSet/`, dataSet(at(1), "RUNNING"), token);
    expect(running.body.dataSet.tripId).toEqual(expect.any(Number));
    const vehicle = (await api("sandbox").get(`/vehicle/${vehicleId}`, token)).body.vehicle;
    expect(vehicle.running).toBe(true);
    const trips = (await api("sandbox").get(`/vehicle/${vehicleId}/trip/`, token)).body.trip;
    expect(trips).toHaveLength(1);
    expect(trips[0].endTime).toBeNull();
  });

  it("a duplicate (same vehicle and timestamp) is ignored and answered with the stored data set", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const set = dataSet(minutesAgo(10), "ON", [waypoint(40, -83)]);
    const first = await api("sandbox").post(`/vehicle/${vehicleId}/dataSet/`, set, token);
    const again = await api("sandbox").post(
      `/vehicle/${vehicleId}/dataSet/`,
      { ...set, datum: [waypoint(41, -84)] },
      token,
    );
    expect(again.status).toBe(200);
    expect(again.body.dataSet.id).toBe(first.body.dataSet.id);
    expect(again.body.dataSet.datum[0].value).toBe("40,-83");
    const batch = await api("sandbox").post(`/vehicle/${vehicleId}/dataSet/`, [set, set], token);
    expect(batch.body.dataSet.map((d: { id: number }) => d.id)).toEqual([first.body.dataSet.id]);
    expect((await api("sandbox").get(`/vehicle/${vehicleId}/dataSet/`, token)).body.totalRecords).toBe(1);
    expect((await api("sandbox").get(`/vehicle/${vehicleId}/trip/`, token)).body.totalRecords).toBe(1);
  });

  it("a late data set is stored in the trip whose span holds it and changes no vehicle state", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const t0 = minutesAgo(90);
    const at = (m: number) => new Date(t0.getTime() + m * 60_000);
    await api("sandbox").post(
      `/vehicle/${vehicleId}/dataSet/`,
      [dataSet(at(0), "ON"), dataSet(at(10), "OFF", [{ key: "GEN_TRIP_MILEAGE", value: 3 }])],
      token,
    );
    await api("sandbox").post(
      `/vehicle/${vehicleId}/dataSet/`,
      [dataSet(at(20), "ON", [waypoint(40.1, -83.1)]), dataSet(at(30), "RUNNING", [waypoint(40.2, -83.2)])],
      token,
    );
    const before = (await api("sandbox").get(`/vehicle/${vehicleId}`, token)).body.vehicle;

    const late = await api("sandbox").post(
      `/vehicle/${vehicleId}/dataSet/`,
      dataSet(at(5), "RUNNING", [waypoint(39.5, -82.5), { key: "GEN_ODOMETER", value: 900 }]),
      token,
    );
    expect(late.status, late.text).toBe(200);
    const trips = (await api("sandbox").get(`/vehicle/${vehicleId}/trip/?sortOrder=asc`, token)).body.trip;
    expect(late.body.dataSet.tripId).toBe(trips[0].id);
    const firstTrip = (await api("sandbox").get(`/vehicle/${vehicleId}/trip/${trips[0].id}`, token)).body.trip;
    expect(firstTrip.data).toHaveLength(3);
    expect(firstTrip).toMatchObject({ startTime: wireTime(at(0)), endTime: wireTime(at(10)), mileage: 3 });
    const after = (await api("sandbox").get(`/vehicle/${vehicleId}`, token)).body.vehicle;
    expect(after).toEqual(before);
  });

  it("mileage grows with trip mileage, takes a higher GEN_ODOMETER, and never decreases", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const t0 = minutesAgo(50);
    const at = (m: number) => new Date(t0.getTime() + m * 60_000);
    await api("sandbox").post(
      `/vehicle/${vehicleId}/dataSet/`,
      [
        dataSet(at(0), "ON", [{ key: "GEN_ODOMETER", value: 1000 }]),
        dataSet(at(5), "OFF", [{ key: "GEN_TRIP_MILEAGE", value: 2.5 }]),
      ],
      token,
    );
    expect((await api("sandbox").get(`/vehicle/${vehicleId}`, token)).body.vehicle.mileage).toBe(1002.5);
    await api("sandbox").post(
      `/vehicle/${vehicleId}/dataSet/`,
      dataSet(at(6), "OFF", [{ key: "GEN_ODOMETER", value: 500 }]),
      token,
    );
    expect((await api("sandbox").get(`/vehicle/${vehicleId}`, token)).body.vehicle.mileage).toBe(1002.5);
    await api("sandbox").post(
      `/vehicle/${vehicleId}/dataSet/`,
      dataSet(at(7), "OFF", [{ key: "GEN_ODOMETER", value: 1100 }]),
      token,
    );
    expect((await api("sandbox").get(`/vehicle/${vehicleId}`, token)).body.vehicle.mileage).toBe(1100);
  });

  it("a trip's miles count once when the device reports GEN_ODOMETER along it, one data set per post", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const t0 = minutesAgo(45);
    const at = (m: number) => new Date(t0.getTime() + m * 60_000);
    const post = (set: ReturnType<typeof dataSet>) => api("sandbox").post(`/vehicle/${vehicleId}/dataSet/`, set, token);
    const mileage = async () =>
      (await api("sandbox").get(`/vehicle/${vehicleId}`, token)).body.vehicle.mileage as number;
    await post(dataSet(at(0), "ON", [{ key: "GEN_ODOMETER", value: 2000 }]));
    await post(dataSet(at(1), "RUNNING", [{ key: "GEN_ODOMETER", value: 2001.25 }]));
    expect(await mileage()).toBe(2001.25);
    await post(
      dataSet(at(2), "OFF", [
        { key: "GEN_ODOMETER", value: 2002.5 },
        { key: "GEN_TRIP_MILEAGE", value: 2.5 },
      ]),
    );
    expect(await mileage()).toBe(2002.5);
    // The next trip reports no odometer: its miles are added to where the last one ended.
    await post(dataSet(at(3), "ON"));
    await post(dataSet(at(4), "RUNNING", [{ key: "GEN_ODOMETER", value: 2003 }]));
    await post(dataSet(at(5), "OFF", [{ key: "GEN_TRIP_MILEAGE", value: 1.5 }]));
    expect(await mileage()).toBe(2004);
  });

  it("concurrent single posts for one vehicle keep one consistent trip", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const sets = simulatedTrip(minutesAgo(40), { points: 15 });
    const [on, ...rest] = sets;
    await api("sandbox").post(`/vehicle/${vehicleId}/dataSet/`, on, token);
    const replies = await Promise.all(
      rest.slice(0, -1).map((set) => api("sandbox").post(`/vehicle/${vehicleId}/dataSet/`, set, token)),
    );
    expect(replies.every((r) => r.status === 200)).toBe(true);
    await api("sandbox").post(`/vehicle/${vehicleId}/dataSet/`, sets.at(-1), token);
    const trips = (await api("sandbox").get(`/vehicle/${vehicleId}/trip/?includeData=true`, token)).body.trip;
    expect(trips).toHaveLength(1);
    expect(trips[0].data).toHaveLength(17);
    expect(trips[0].endTime).toBe(sets.at(-1)!.timestamp);
  });
});

// Each key's newest point is a copy ingest keeps (latest_data_points): these would fail if a late, an
// equal-time or a concurrent write left it naming any but the newest point the list holds.
describe("GET …/data/?mostRecentOnly=true", { tags: ["embedded"] }, () => {
  const newestOf = (vehicleId: number, token: string) => newestOfEachKey(apiBase("sandbox"), vehicleId, token);
  /** The paged list's first point of each key, newest first (by time, then id): what the copies must equal. */
  const firstOfEachKeyInList = async (vehicleId: number, token: string) => {
    const all = await api("sandbox").get(`/vehicle/${vehicleId}/data/?searchLimit=200`, token);
    expect(all.status, all.text).toBe(200);
    const first = new Map<string, unknown>();
    for (const point of all.body.data as { key: string }[]) if (!first.has(point.key)) first.set(point.key, point);
    return [...first.keys()].sort().map((key) => first.get(key));
  };

  it("a late data set's older points leave each key's newest point as it was; a newer one replaces it", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const t0 = minutesAgo(30);
    const at = (m: number) => new Date(t0.getTime() + m * 60_000);
    const post = async (body: unknown) => {
      const res = await api("sandbox").post(`/vehicle/${vehicleId}/dataSet/`, body, token);
      expect(res.status, res.text).toBe(200);
    };
    await post(dataSet(at(10), "RUNNING", [{ key: "GEN_SPEED", value: 30 }, waypoint(40, -83)]));
    await post(
      dataSet(at(5), "RUNNING", [
        { key: "GEN_SPEED", value: 99 },
        { key: "GEN_VOLTAGE", value: 12.1 },
      ]),
    );
    const valueOf = async () => Object.fromEntries((await newestOf(vehicleId, token)).map((p) => [p.key, p.value]));
    // GEN_VOLTAGE's only point is the late one: it is that key's newest.
    expect(await valueOf()).toEqual({ GEN_SPEED: "30", GEN_VOLTAGE: "12.1", GEN_WAYPOINT: "40,-83" });
    await post(dataSet(at(11), "RUNNING", [{ key: "GEN_SPEED", value: 31 }]));
    expect(await valueOf()).toEqual({ GEN_SPEED: "31", GEN_VOLTAGE: "12.1", GEN_WAYPOINT: "40,-83" });
    expect(await newestOf(vehicleId, token)).toEqual(await firstOfEachKeyInList(vehicleId, token));
    // One key asked for: its newest alone.
    const speed = await api("sandbox").get(`/vehicle/${vehicleId}/data/?mostRecentOnly=true&key=gen_speed`, token);
    expect(speed.body.data.map((p: { value: string }) => p.value)).toEqual(["31"]);
  });

  it("two points of a key at one time: the later written is the newest, as in the list", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const at = minutesAgo(20);
    const res = await api("sandbox").post(
      `/vehicle/${vehicleId}/dataSet/`,
      dataSet(at, "RUNNING", [
        { key: "GEN_SPEED", value: 40 },
        { key: "GEN_SPEED", value: 41 },
      ]),
      token,
    );
    expect(res.status, res.text).toBe(200);
    const newest = await newestOf(vehicleId, token);
    expect(newest).toEqual(await firstOfEachKeyInList(vehicleId, token));
    expect(newest.map((p) => p.value)).toEqual(["41"]);
  });

  it("a batch: a point's own time decides, not its set's time or its place in the batch", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const t0 = minutesAgo(25);
    const at = (m: number) => new Date(t0.getTime() + m * 60_000);
    // The first set's GEN_SPEED carries a time after the second set's; the second set's GEN_VOLTAGE
    // is newer than the first's, though both sets come before a third set without that key.
    const res = await api("sandbox").post(
      `/vehicle/${vehicleId}/dataSet/`,
      [
        dataSet(at(1), "RUNNING", [
          { key: "GEN_SPEED", value: 70, timestamp: wireTime(at(4)) },
          { key: "GEN_VOLTAGE", value: 12.0 },
        ]),
        dataSet(at(2), "RUNNING", [
          { key: "GEN_SPEED", value: 50 },
          { key: "GEN_VOLTAGE", value: 12.4 },
        ]),
        dataSet(at(3), "RUNNING", [{ key: "GEN_SPEED", value: 60 }]),
      ],
      token,
    );
    expect(res.status, res.text).toBe(200);
    const newest = await newestOf(vehicleId, token);
    expect(Object.fromEntries(newest.map((p) => [p.key, p.value]))).toEqual({ GEN_SPEED: "70", GEN_VOLTAGE: "12.4" });
    expect(newest).toEqual(await firstOfEachKeyInList(vehicleId, token));
  });

  it("concurrent posts in any order: each key's newest is the newest posted", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const t0 = minutesAgo(15);
    // Twelve data sets a minute apart, posted at once in a shuffled order, singly and in pairs.
    const sets = Array.from({ length: 12 }, (_, i) =>
      dataSet(new Date(t0.getTime() + i * 60_000), "RUNNING", [
        { key: "GEN_SPEED", value: 10 + i },
        waypoint(40 + i * 0.001, -83),
      ]),
    );
    const order = [7, 2, 11, 0, 5, 9, 3, 10, 1, 8, 4, 6];
    const bodies = [
      ...order.slice(0, 6).map((i) => sets[i]),
      [sets[order[6]!], sets[order[7]!]],
      [sets[order[8]!], sets[order[9]!]],
      [sets[order[10]!], sets[order[11]!]],
    ];
    const replies = await Promise.all(
      bodies.map((b) => api("sandbox").post(`/vehicle/${vehicleId}/dataSet/`, b, token)),
    );
    for (const r of replies) expect(r.status, r.text).toBe(200);
    const newest = await newestOf(vehicleId, token);
    expect(Object.fromEntries(newest.map((p) => [p.key, p.value]))).toEqual({
      GEN_SPEED: "21",
      GEN_WAYPOINT: "40.011,-83",
    });
    expect(newest).toEqual(await firstOfEachKeyInList(vehicleId, token));
  });
});

describe("translatedValue (docs/device-data.md)", () => {
  it("formats each key as docs/device-data.md's table says", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const values: [string, string | number | boolean, string][] = [
      ["GEN_VOLTAGE", 13.94, "13.9V"],
      ["GEN_SPEED", 17, "17.0 mph"],
      ["GEN_HEADING", "148.4", "148 deg"],
      ["GEN_FUELLEVEL", 40, "40 %"],
      ["GEN_FUELRATE", 0.5, "0.5 gph"],
      ["GEN_RPM", 2100, "2100 rpm"],
      ["GEN_TRIP_MILEAGE", 4.4, "4 miles"],
      ["GEN_ODOMETER", 160854, "160854 miles"],
      ["GEN_ENGINE_COOLANT_TEMP", 81.6, "178.9 deg F"],
      ["GEN_WAYPOINT", "28.036441,-82.593687", "28.036441,-82.593687"],
      ["GEN_DTC", "P0420", "P0420"],
      ["VEHICLE_EVENT_HARSH_ACCEL", true, "true"],
    ];
    const res = await api("sandbox").post(
      `/vehicle/${vehicleId}/dataSet/`,
      dataSet(
        minutesAgo(5),
        "RUNNING",
        values.map(([key, value]) => ({ key, value })),
      ),
      token,
    );
    expect(res.status, res.text).toBe(200);
    expect(
      res.body.dataSet.datum.map((d: { key: string; value: string; translatedValue: string }) => [
        d.key,
        d.value,
        d.translatedValue,
      ]),
    ).toEqual(values.map(([key, value, translated]) => [key, String(value), translated]));
  });
});

describe("bad data sets", () => {
  const post = async (body: unknown) => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    return api("sandbox").post(`/vehicle/${vehicleId}/dataSet/`, body, token);
  };
  const fieldNames = (reply: { body: { error: { fieldErrors: { fieldName: string }[] } } }) =>
    reply.body.error.fieldErrors.map((f) => f.fieldName);

  it("latitude outside ±90 → 400 naming the datum value", async () => {
    const res = await post(dataSet(minutesAgo(1), "RUNNING", [waypoint(91, 10)]));
    expectApiError(res, 400, "VALIDATION");
    expect(fieldNames(res)).toEqual(["datum.0.value"]);
  });

  it("the (0,0) waypoint of a device without a fix → 400", async () => {
    expectApiError(await post(dataSet(minutesAgo(1), "RUNNING", [waypoint(0, 0)])), 400, "VALIDATION");
  });

  it("a timestamp more than 5 minutes in the future → 400 on timestamp", async () => {
    const res = await post(dataSet(new Date(Date.now() + 10 * 60_000), "ON"));
    expectApiError(res, 400, "VALIDATION");
    expect(fieldNames(res)).toEqual(["timestamp"]);
  });

  it("unknown ignitionStatus, missing timestamp, non-numeric GEN_SPEED → field errors, nothing stored", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const res = await api("sandbox").post(
      `/vehicle/${vehicleId}/dataSet/`,
      [{ ignitionStatus: "STARTED", datum: [{ key: "GEN_SPEED", value: "fast" }] }],
      token,
    );
    expectApiError(res, 400, "VALIDATION");
    expect(fieldNames(res).sort()).toEqual(["0.datum.0.value", "0.ignitionStatus", "0.timestamp"]);
    expect((await api("sandbox").get(`/vehicle/${vehicleId}/dataSet/`, token)).body.totalRecords).toBe(0);
  });

  it("a batch of 501 → 400; one bad set in a batch stores none of it", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const t0 = minutesAgo(600);
    const big = Array.from({ length: 501 }, (_, i) => dataSet(new Date(t0.getTime() + i * 1000), "RUNNING"));
    expectApiError(await api("sandbox").post(`/vehicle/${vehicleId}/dataSet/`, big, token), 400, "VALIDATION");
    const mixed = [dataSet(minutesAgo(3), "ON"), dataSet(minutesAgo(2), "RUNNING", [waypoint(100, 0)])];
    expectApiError(await api("sandbox").post(`/vehicle/${vehicleId}/dataSet/`, mixed, token), 400, "VALIDATION");
    expect((await api("sandbox").get(`/vehicle/${vehicleId}/dataSet/`, token)).body.totalRecords).toBe(0);
  });

  it("another driver's vehicle → 404", async () => {
    const mine = await driverWithVehicle();
    const theirs = await driverWithVehicle();
    expectApiError(
      await api("sandbox").post(
        `/vehicle/${theirs.vehicleId}/dataSet/`,
        dataSet(minutesAgo(1), "ON"),
        mine.accessToken,
      ),
      404,
      "NOT_FOUND",
    );
    expectApiError(await api("sandbox").get(`/vehicle/${theirs.vehicleId}/trip/`, mine.accessToken), 404, "NOT_FOUND");
    expectApiError(await api("sandbox").get(`/vehicle/${theirs.vehicleId}/data/`, mine.accessToken), 404, "NOT_FOUND");
  });
});

describe("who may post data sets", () => {
  it.each<Env>(["sandbox"])("in the %s any app with access to the vehicle may", async (env) => {
    const { clientToken: client, vehicleId } = await driverWithVehicle(env);
    const res = await api(env).post(`/vehicle/${vehicleId}/dataSet/`, dataSet(minutesAgo(1), "ON"), client);
    expect(res.status, res.text).toBe(200);
  });

  it("in production an app not approved as data provider → 403 FORBIDDEN", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle("production", "main");
    expectApiError(
      await api("production").post(`/vehicle/${vehicleId}/dataSet/`, dataSet(minutesAgo(1), "ON"), token),
      403,
      "FORBIDDEN",
    );
  });

  it("in production a data-provider app may", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle("production", "provider");
    const res = await api("production").post(
      `/vehicle/${vehicleId}/dataSet/`,
      dataSet(minutesAgo(1), "ON", [waypoint(38.9, -77.03)]),
      token,
    );
    expect(res.status, res.text).toBe(200);
    expect((await api("production").get(`/vehicle/${vehicleId}`, token)).body.vehicle.lastWaypoint).toMatchObject({
      latitude: 38.9,
      longitude: -77.03,
    });
  });
});

describe("GET /account/data/?sinceLastCall=true", { tags: ["embedded"] }, () => {
  // Points are handed out once every older transaction on the server has ended (so a slow ingest
  // committing late is never skipped); other tests' transactions may hold them back a moment.
  // Collects what successive calls return until `count` points came, or 15 s passed (as the event feed's tests
  // wait: on a busy machine another file's migration may hold its transaction open for seconds).
  async function collect(path: string, token: string, count: number) {
    const got: any[] = [];
    const deadline = Date.now() + 15_000;
    while (got.length < count && Date.now() < deadline) {
      const res = await api("sandbox").get(path, token);
      expect(res.status, res.text).toBe(200);
      got.push(...res.body.data);
      if (got.length < count) await new Promise((r) => setTimeout(r, 100));
    }
    return got;
  }

  it("the first call returns none and sets the cursor; later calls return only what came since", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    await api("sandbox").post(
      `/vehicle/${vehicleId}/dataSet/`,
      dataSet(minutesAgo(10), "ON", [waypoint(40, -83)]),
      token,
    );
    const first = await api("sandbox").get(`/account/data/?sinceLastCall=true`, token);
    expect(first.status, first.text).toBe(200);
    expect(first.body.data).toEqual([]);

    await api("sandbox").post(
      `/vehicle/${vehicleId}/dataSet/`,
      dataSet(minutesAgo(9), "RUNNING", [waypoint(40.1, -83.1), { key: "GEN_SPEED", value: 33 }]),
      token,
    );
    const second = await collect(`/account/data/?sinceLastCall=true`, token, 2);
    expect(second.map((d: { key: string; value: string; vehicleId: number }) => [d.vehicleId, d.key, d.value])).toEqual(
      [
        [vehicleId, "GEN_WAYPOINT", "40.1,-83.1"],
        [vehicleId, "GEN_SPEED", "33"],
      ],
    );
    expect((await api("sandbox").get(`/account/data/?sinceLastCall=true`, token)).body.data).toEqual([]);
  });

  it("a client-credentials token names the account; the cursor is per app", async () => {
    const { accessToken: token, vehicleId, account } = await driverWithVehicle();
    const client = await clientToken(apps().main.sandbox);
    expectApiError(await api("sandbox").get(`/account/data/?sinceLastCall=true`, client), 400, "VALIDATION");
    await api("sandbox").get(`/account/data/?sinceLastCall=true&accountId=${account.id}`, client);
    await api("sandbox").post(
      `/vehicle/${vehicleId}/dataSet/`,
      dataSet(minutesAgo(2), "ON", [{ key: "GEN_VOLTAGE", value: 12.6 }]),
      token,
    );
    const viaClient = await collect(`/account/data/?sinceLastCall=true&accountId=${account.id}`, client, 1);
    expect(viaClient.map((d: { translatedValue: string }) => d.translatedValue)).toEqual(["12.6V"]);
    const all = await api("sandbox").get(`/account/data/`, token);
    expect(all.body.totalRecords).toBe(1);
  });
});

describe("GET /account/data/ (paged)", () => {
  it("pages the points of all the account's vehicles newest first (by time, then id), and no other account's", async () => {
    const { accessToken: token, vehicleId: first } = await driverWithVehicle();
    const { vehicleId: second } = await addVehicle("sandbox", token);
    const other = await driverWithVehicle();
    const at = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    const post = async (vehicleId: number, body: unknown, as = token) =>
      expect((await api("sandbox").post(`/vehicle/${vehicleId}/dataSet/`, body, as)).status).toBe(200);
    // The two vehicles' times interleave, one time is on both (the id breaks that tie), and the second
    // vehicle's older set is posted last, so the ids' order is not the times'.
    await post(
      first,
      dataSet(at(10), "ON", [
        { key: "GEN_VOLTAGE", value: 12.1 },
        { key: "GEN_SPEED", value: 1 },
      ]),
    );
    await post(first, dataSet(at(8), "RUNNING", [{ key: "GEN_SPEED", value: 2 }]));
    await post(
      second,
      dataSet(at(8), "RUNNING", [
        { key: "GEN_SPEED", value: 3 },
        { key: "GEN_VOLTAGE", value: 12.3 },
      ]),
    );
    await post(second, dataSet(at(9), "ON", [{ key: "GEN_VOLTAGE", value: 12.2 }]));
    await post(other.vehicleId, dataSet(at(7), "ON", [{ key: "GEN_VOLTAGE", value: 9.9 }]), other.accessToken);
    const expected = (
      await testSql()<{ id: string }[]>`
        select id::text from data_points where vehicle_id in (${first}, ${second}) order by recorded_at desc, data_points.id desc`
    ).map((r) => Number(r.id));
    expect(expected.length).toBeGreaterThanOrEqual(6);

    const ids = (res: { body: { data: { id: number }[] } }) => res.body.data.map((d) => d.id);
    const all = await api("sandbox").get(`/account/data/?searchLimit=50`, token);
    expect(all.status, all.text).toBe(200);
    expect(ids(all)).toEqual(expected);
    expect(all.body.totalRecords).toBe(expected.length);
    const paged: number[] = [];
    for (let offset = 0; offset < expected.length; offset += 2)
      paged.push(...ids(await api("sandbox").get(`/account/data/?searchLimit=2&searchOffset=${offset}`, token)));
    expect(paged).toEqual(expected);
    expect(ids(await api("sandbox").get(`/account/data/?searchOffset=${expected.length}`, token))).toEqual([]);
  });
});

describe("VIN decoding", () => {
  it("a VIN set by the API fills year, make, model and name; clearing it clears them", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const set = await api("sandbox").post(`/vehicle/${vehicleId}`, { vin: "1hgcm82633a004352" }, token);
    expect(set.status, set.text).toBe(200);
    expect(set.body.vehicle).toMatchObject({
      vin: "1HGCM82633A004352",
      year: "2003",
      make: "Honda",
      model: "Accord",
      name: "2003 Honda Accord",
    });
    const cleared = await api("sandbox").post(`/vehicle/${vehicleId}`, { vin: "" }, token);
    expect(cleared.body.vehicle).toMatchObject({
      vin: null,
      year: null,
      make: null,
      model: null,
      name: "Unidentified Vehicle",
    });
  });

  it("a VIN in a data set fills the vehicle's year, make and model", { tags: ["embedded"] }, async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const res = await api("sandbox").post(
      `/vehicle/${vehicleId}/dataSet/`,
      dataSet(minutesAgo(1), "ON", [], { vin: "5YJ3E1EA2KF317000" }),
      token,
    );
    expect(res.status, res.text).toBe(200);
    const vehicle = (await api("sandbox").get(`/vehicle/${vehicleId}`, token)).body.vehicle;
    expect(vehicle).toMatchObject({
      vin: "5YJ3E1EA2KF317000",
      year: "2019",
      make: "Tesla",
      model: "Model 3",
      name: "2019 Tesla Model 3",
    });
  });

  it("a North American VIN with a wrong check digit → 400 INVALID on vin, in the API and in a data set", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const viaApi = await api("sandbox").post(`/vehicle/${vehicleId}`, { vin: "1HGCM82623A004352" }, token);
    expectApiError(viaApi, 400, "VALIDATION");
    expect(viaApi.body.error.fieldErrors).toEqual([
      expect.objectContaining({ fieldName: "vin", errorCode: "INVALID" }),
    ]);
    const viaData = await api("sandbox").post(
      `/vehicle/${vehicleId}/dataSet/`,
      dataSet(minutesAgo(1), "ON", [], { vin: "1HGCM82623A004352" }),
      token,
    );
    expect(viaData.body.error.fieldErrors).toEqual([
      expect.objectContaining({ fieldName: "vin", errorCode: "INVALID" }),
    ]);
  });
});

describe(
  "points with a time of their own (docs/partitions.md#pruning-the-hot-reads-plans)",
  { tags: ["embedded"] },
  () => {
    // Reads that reach points through their set bound them by the set's span (data_sets.points_from,
    // points_to): a point stamped 40 days before its set lies in another month's partition, and a span
    // that left it out would drop it from every one of these reads.
    const DAYS_40 = 40 * 86_400_000;

    it("a trip, a data set and the data set list answer them, and so they do when the span is not known", async () => {
      const { accessToken: token, vehicleId } = await driverWithVehicle();
      const start = minutesAgo(30);
      const sets = simulatedTrip(start, { points: 3 }).map((set) =>
        set.ignitionStatus === "RUNNING"
          ? {
              ...set,
              datum: set.datum.map((d) =>
                d.key === "GEN_SPEED" ? { ...d, timestamp: wireTime(new Date(start.getTime() - DAYS_40)) } : d,
              ),
            }
          : set,
      );
      const posted = await api("sandbox").post(`/vehicle/${vehicleId}/dataSet/`, sets, token);
      expect(posted.status, posted.text).toBe(200);
      const early = wireTime(new Date(start.getTime() - DAYS_40));
      const ownTimes = (data: { datum: { key: string; timestamp: string }[] }[]) =>
        data.flatMap((set) => set.datum.filter((d) => d.key === "GEN_SPEED").map((d) => d.timestamp));
      const read = async () => {
        const trips = await api("sandbox").get(`/vehicle/${vehicleId}/trip/`, token);
        const trip = await api("sandbox").get(`/vehicle/${vehicleId}/trip/${trips.body.trip[0].id}`, token);
        const listed = await api("sandbox").get(`/vehicle/${vehicleId}/dataSet/?searchLimit=50`, token);
        const running = listed.body.dataSet.find((set: { ignitionStatus: string }) => set.ignitionStatus === "RUNNING");
        const one = await api("sandbox").get(`/vehicle/${vehicleId}/dataSet/${running.id}`, token);
        return {
          trip: ownTimes(trip.body.trip.data),
          listed: ownTimes(listed.body.dataSet),
          one: ownTimes([one.body.dataSet]),
        };
      };
      const expected = { trip: [early, early, early], listed: [early, early, early], one: [early] };
      expect(await read()).toEqual(expected);
      const [span] = await testSql()<{ from: Date; to: Date }[]>`
      select points_from as from, points_to as to from data_sets where vehicle_id = ${vehicleId} and ignition_status = 'RUNNING' limit 1`;
      expect(span!.to.getTime() - span!.from.getTime()).toBeGreaterThanOrEqual(DAYS_40);

      // A set written before migration 0029, or by another writer, has no span: its points come from every month.
      await testSql()`update data_sets set points_from = null, points_to = null where vehicle_id = ${vehicleId}`;
      expect(await read()).toEqual(expected);
    });
  },
);

describe("deleting a vehicle", { tags: ["embedded"] }, () => {
  it("deletes its trips, data sets and data points with it", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const posted = await api("sandbox").post(
      `/vehicle/${vehicleId}/dataSet/`,
      simulatedTrip(minutesAgo(30), { points: 5 }),
      token,
    );
    expect(posted.status, posted.text).toBe(200);
    const count = async () => {
      const [row] = await testSql()`select (select count(*) from trips where vehicle_id = ${vehicleId})::int as trips,
        (select count(*) from data_sets where vehicle_id = ${vehicleId})::int as sets, (select count(*) from
          data_points where vehicle_id = ${vehicleId})::int as points`;
      return row;
    };
    expect(await count()).toEqual({ trips: 1, sets: 7, points: 19 });
    const deleted = await api("sandbox").del(`/vehicle/${vehicleId}`, token);
    expect(deleted.status, deleted.text).toBe(200);
    expect(await count()).toEqual({ trips: 0, sets: 0, points: 0 });
  });
});
