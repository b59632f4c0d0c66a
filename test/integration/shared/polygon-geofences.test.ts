import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import { api, request } from "@/test/helpers/api";
import { expectFieldErrors } from "@/test/helpers/fixtures";
import { dataSet, driverWithVehicle, waypoint, wireTime } from "@/test/helpers/telemetry";

// GEOFENCE subscriptions drawn as a polygon (docs/subscriptions.md#polygons), over real HTTP: made,
// read back and listed with `polygon` in place of origin and radius, refused with field errors when
// the ring is no fence, and notifying as a vehicle drives in and out.

const sandbox = api("sandbox");
const RECEIVER = "https://hooks.partner.example/wayline";
const minutesAgo = (m: number) => new Date(Math.floor(Date.now() / 60_000) * 60_000 - m * 60_000);
const at = (start: Date, minute: number) => new Date(start.getTime() + minute * 60_000);
const p = (latitude: number, longitude: number) => ({ latitude, longitude });

// A concave U around downtown Columbus: its notch (39.965, -82.995) is outside, though a circle
// or box round the fence would hold it.
const U = [
  p(39.95, -83.01),
  p(39.95, -82.98),
  p(39.98, -82.98),
  p(39.98, -82.99),
  p(39.96, -82.99),
  p(39.96, -83.0),
  p(39.98, -83.0),
  p(39.98, -83.01),
];

async function subscribe(vehicleId: number, body: Record<string, unknown>, token: string) {
  const res = await sandbox.post(`/vehicle/${vehicleId}/eventSubscription/GEOFENCE/`, body, token);
  expect(res.status, res.text).toBe(200);
  return res.body.subscription as { id: number; [key: string]: unknown };
}

async function notificationsOf(vehicleId: number, subscriptionId: number, token: string) {
  const res = await sandbox.get(
    `/vehicle/${vehicleId}/eventSubscription/${subscriptionId}/eventNotification/?searchLimit=100&sortOrder=asc`,
    token,
  );
  expect(res.status, res.text).toBe(200);
  return res.body.notifications as Record<string, any>[];
}

describe("GEOFENCE with a polygon", () => {
  it("is made, read back, listed and updated with polygon in place of origin and radius", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    // Sent closed and with numbers as strings, as real clients do.
    const closed = [...U.map((q) => ({ latitude: String(q.latitude), longitude: q.longitude })), U[0]];
    const sub = await subscribe(
      vehicleId,
      { notificationPeriod: "STATECHANGE", boundaryCondition: "inside", polygon: closed, postUrl: RECEIVER },
      token,
    );
    expect(sub).toMatchObject({ _type: "GEOFENCE", polygon: U, boundaryCondition: "INSIDE", ignitionStatus: "ANY" });
    expect(sub).not.toHaveProperty("origin");
    expect(sub).not.toHaveProperty("radius");

    const read = await sandbox.get(`/vehicle/${vehicleId}/eventSubscription/GEOFENCE/${sub.id}`, token);
    expect(read.body.subscription).toEqual(sub);
    const listed = await sandbox.get(`/vehicle/${vehicleId}/eventSubscription/geofence/`, token);
    expect(listed.body.subscriptions).toEqual([sub]);

    // An echoed body with one field changed keeps the polygon.
    const echoed = await sandbox.post(
      `/vehicle/${vehicleId}/eventSubscription/${sub.id}`,
      { ...sub, boundaryCondition: "OUTSIDE" },
      token,
    );
    expect(echoed.status, echoed.text).toBe(200);
    expect(echoed.body.subscription).toMatchObject({ polygon: U, boundaryCondition: "OUTSIDE" });

    // A circle sent on update replaces the polygon, and a polygon a circle.
    const circle = await sandbox.post(
      `/vehicle/${vehicleId}/eventSubscription/${sub.id}`,
      { origin: p(39.96, -83), radius: 2 },
      token,
    );
    expect(circle.status, circle.text).toBe(200);
    expect(circle.body.subscription).toMatchObject({ origin: p(39.96, -83), radius: 2 });
    expect(circle.body.subscription).not.toHaveProperty("polygon");
    const back = await sandbox.post(`/vehicle/${vehicleId}/eventSubscription/${sub.id}`, { polygon: U }, token);
    expect(back.status, back.text).toBe(200);
    expect(back.body.subscription).toMatchObject({ polygon: U });
    expect(back.body.subscription).not.toHaveProperty("origin");
    expect(back.body.subscription).not.toHaveProperty("radius");
  });

  it("refuses rings that are no fence with 400 field errors naming polygon or the point", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const base = `/vehicle/${vehicleId}/eventSubscription/GEOFENCE/`;
    const refused = (polygon: unknown, extra: Record<string, unknown> = {}) =>
      sandbox.post(base, { boundaryCondition: "INSIDE", postUrl: RECEIVER, polygon, ...extra }, token);

    // Two points, or three with the closing one: fewer than three corners.
    expectFieldErrors(await refused([p(0, 0), p(0, 1)]), { polygon: "INVALID" });
    expectFieldErrors(await refused([p(0, 0), p(0, 1), p(0, 0)]), { polygon: "INVALID" });
    // 101 corners is one too many; 100 and a closing point are allowed.
    const circleOf = (n: number) =>
      Array.from({ length: n }, (_, i) =>
        p(40 + 0.01 * Math.sin((2 * Math.PI * i) / n), -83 + 0.01 * Math.cos((2 * Math.PI * i) / n)),
      );
    expectFieldErrors(await refused(circleOf(101)), { polygon: "INVALID" });
    const hundred = circleOf(100);
    const allowed = await refused([...hundred, hundred[0]]);
    expect(allowed.status, allowed.text).toBe(200);
    expect(allowed.body.subscription.polygon).toHaveLength(100);
    // A bow tie crosses itself.
    expectFieldErrors(await refused([p(0, 0), p(1, 1), p(1, 0), p(0, 1)]), { polygon: "INVALID" });
    // Out of range, not a number, not a point, not an array.
    expectFieldErrors(await refused([p(0, 0), p(91, 1), p(1, 181)]), {
      "polygon.1.latitude": "INVALID",
      "polygon.2.longitude": "INVALID",
    });
    expectFieldErrors(await refused([p(0, 0), { latitude: "north", longitude: 1 }, p(1, 1)]), {
      "polygon.1.latitude": "INVALID",
    });
    expectFieldErrors(await refused([p(0, 0), { latitude: 1 }, p(1, 1)]), { "polygon.1.longitude": "REQUIRED" });
    expectFieldErrors(await refused("39.9,-83;40,-83;40,-82.9"), { polygon: "INVALID" });
    // The same point twice in a row.
    expectFieldErrors(await refused([p(0, 0), p(0, 1), p(0, 1), p(1, 1)]), { "polygon.2": "INVALID" });
    // Both shapes at once, and neither.
    expectFieldErrors(await refused(U, { origin: p(39.96, -83), radius: 1 }), { polygon: "INVALID" });
    expectFieldErrors(await refused(undefined), { origin: "REQUIRED", radius: "REQUIRED" });
    // A polygon without a boundary condition.
    expectFieldErrors(await sandbox.post(base, { polygon: U, postUrl: RECEIVER }, token), {
      boundaryCondition: "REQUIRED",
    });
    // None of them was made.
    const listed = await sandbox.get(`/vehicle/${vehicleId}/eventSubscription/`, token);
    expect(listed.body.subscriptions).toHaveLength(1);
  });

  it("notifies entering and leaving under STATECHANGE, and not in the U's notch", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const sub = await subscribe(
      vehicleId,
      { notificationPeriod: "STATECHANGE", boundaryCondition: "INSIDE", polygon: U, postUrl: RECEIVER },
      token,
    );
    const outside = await subscribe(
      vehicleId,
      { notificationPeriod: "CONTINUOUS", boundaryCondition: "OUTSIDE", polygon: U, postUrl: RECEIVER },
      token,
    );
    const start = minutesAgo(30);
    const sets = [
      dataSet(at(start, 0), "ON", [waypoint(39.94, -82.995)]), // south of the fence
      dataSet(at(start, 1), "RUNNING", [waypoint(39.955, -82.995)]), // in its base: entered
      dataSet(at(start, 2), "RUNNING", [waypoint(39.97, -83.005)]), // up its west arm
      dataSet(at(start, 3), "RUNNING", [waypoint(39.965, -82.995)]), // in the notch: left
      dataSet(at(start, 4), "RUNNING", [{ key: "GEN_SPEED", value: 20 }]), // no position: says nothing
      dataSet(at(start, 5), "RUNNING", [waypoint(39.97, -82.98)]), // on the east arm's outer edge: entered
      dataSet(at(start, 6), "OFF", [waypoint(39.99, -82.985)]), // north of it: left
    ];
    const posted = await sandbox.post(`/vehicle/${vehicleId}/dataSet/`, sets, token);
    expect(posted.status, posted.text).toBe(200);

    const changes = await notificationsOf(vehicleId, sub.id, token);
    expect(changes.map((n) => [n._timestamp, n.recordedBoundaryCondition])).toEqual([
      [wireTime(at(start, 1)), "INSIDE"],
      [wireTime(at(start, 3)), "OUTSIDE"],
      [wireTime(at(start, 5)), "INSIDE"],
      [wireTime(at(start, 6)), "OUTSIDE"],
    ]);
    expect(changes[0]).toMatchObject({
      _type: "GEOFENCE",
      subscriptionId: sub.id,
      vehicleId,
      notificationPeriod: "STATECHANGE",
      recordedWaypoint: { timestamp: wireTime(at(start, 1)), latitude: 39.955, longitude: -82.995 },
    });
    expect(changes[0]).not.toHaveProperty("polygon");

    const outsides = await notificationsOf(vehicleId, outside.id, token);
    expect(outsides.map((n) => n._timestamp)).toEqual([0, 3, 6].map((m) => wireTime(at(start, m))));
    expect(outsides.every((n) => n.recordedBoundaryCondition === "OUTSIDE")).toBe(true);
  });

  it("over the antimeridian: a fence from lon 179.9 to -179.9 holds both sides and nothing between", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const strip = [p(-16.8, 179.9), p(-16.8, -179.9), p(-16.6, -179.9), p(-16.6, 179.9)];
    const sub = await subscribe(
      vehicleId,
      { notificationPeriod: "CONTINUOUS", boundaryCondition: "INSIDE", polygon: strip, postUrl: RECEIVER },
      token,
    );
    expect(sub.polygon).toEqual(strip);
    const start = minutesAgo(20);
    const posted = await sandbox.post(
      `/vehicle/${vehicleId}/dataSet/`,
      [
        dataSet(at(start, 0), "RUNNING", [waypoint(-16.7, 179.95)]),
        dataSet(at(start, 1), "RUNNING", [waypoint(-16.7, 0)]),
        dataSet(at(start, 2), "RUNNING", [waypoint(-16.7, -179.95)]),
        dataSet(at(start, 3), "RUNNING", [waypoint(-16.7, 179.5)]),
      ],
      token,
    );
    expect(posted.status, posted.text).toBe(200);
    const fired = await notificationsOf(vehicleId, sub.id, token);
    expect(fired.map((n) => n._timestamp)).toEqual([0, 2].map((m) => wireTime(at(start, m))));
  });

  it("the reference's polygon example creates the subscription it describes", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const doc = await request("GET", `${inject("baseUrl")}/sandbox/api/openapi.json`);
    expect(doc.status).toBe(200);
    const create = doc.body.paths["/vehicle/{vehicleId}/eventSubscription/{eventType}/"].post;
    const example = create.requestBody.content["application/json"].examples.polygonGeofence.value;
    const sub = await subscribe(vehicleId, example, token);
    expect(sub).toMatchObject({ polygon: example.polygon, boundaryCondition: example.boundaryCondition });
  });
});
