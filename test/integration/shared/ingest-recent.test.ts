// @module-tag embedded
import { describe, expect, it } from "vitest";
import { api, clientToken, createDriver, sha256, testSql } from "@/test/helpers/api";
import { addVehicle, apps, createPartnerApp, expectApiError } from "@/test/helpers/fixtures";
import { dataSet, driverWithVehicle, waypoint } from "@/test/helpers/telemetry";

// A post for a vehicle the same caller posted for a moment ago goes straight to the write, on
// what the last ingest left, without a read (server/telemetry/ingest/recent-reads.ts). That
// write must still see everything the read would have, and the token is looked up on every
// post, as on every call (withApi): each test changes
// one such thing between two posts, through the API where it can and in SQL where the API
// would take longer than a test, and shows the second post honours it.

const sandbox = api("sandbox");
const secondsAgo = (s: number) => new Date(Math.floor(Date.now() / 1000) * 1000 - s * 1000);

async function post(vehicleId: number, token: string, set: unknown) {
  const res = await sandbox.post(`/vehicle/${vehicleId}/dataSet/`, set, token);
  expect(res.status, res.text).toBe(200);
  return res.body.dataSet as { id: number; tripId: number | null };
}

describe("the next post for a recently posted vehicle", () => {
  it("keeps an edit of the vehicle made in between (its VIN, written by the API)", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    await post(vehicleId, token, dataSet(secondsAgo(120), "ON"));
    const edited = await sandbox.post(`/vehicle/${vehicleId}`, { vin: "1HGCM82633A004352" }, token);
    expect(edited.status, edited.text).toBe(200);
    await post(vehicleId, token, dataSet(secondsAgo(60), "RUNNING"));
    const vehicle = (await sandbox.get(`/vehicle/${vehicleId}`, token)).body.vehicle;
    expect(vehicle).toMatchObject({ vin: "1HGCM82633A004352", make: "Honda", running: true });
  });

  it("notifies a subscription made in between", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    await post(vehicleId, token, dataSet(secondsAgo(120), "ON", [waypoint(39.96, -83)]));
    const sub = await sandbox.post(
      `/vehicle/${vehicleId}/eventSubscription/WAYPOINT/`,
      { notificationPeriod: "CONTINUOUS", postUrl: "https://hooks.partner.example/wayline" },
      token,
    );
    expect(sub.status, sub.text).toBe(200);
    const second = await post(vehicleId, token, dataSet(secondsAgo(60), "RUNNING", [waypoint(39.97, -83)]));
    const notes = await testSql()`select data_set_id from notifications where vehicle_id = ${vehicleId}`;
    expect(notes.map((n) => Number(n.data_set_id))).toEqual([second.id]);
  });

  it("no longer notifies a subscription deleted in between, and keeps the states the last post left", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const subscribe = async (type: string, body: Record<string, unknown>) => {
      const res = await sandbox.post(
        `/vehicle/${vehicleId}/eventSubscription/${type}/`,
        { ...body, postUrl: "https://hooks.partner.example/wayline" },
        token,
      );
      expect(res.status, res.text).toBe(200);
      return res.body.subscription.id as number;
    };
    const waypoints = await subscribe("WAYPOINT", { notificationPeriod: "CONTINUOUS" });
    const inside = await subscribe("GEOFENCE", {
      notificationPeriod: "INITIALSTATE",
      origin: { latitude: 39.97, longitude: -83 },
      radius: 5,
      boundaryCondition: "INSIDE",
    });
    await post(vehicleId, token, dataSet(secondsAgo(180), "ON", [waypoint(39.96, -83)]));
    await post(vehicleId, token, dataSet(secondsAgo(120), "RUNNING", [waypoint(39.97, -83)]));
    expect((await sandbox.del(`/vehicle/${vehicleId}/eventSubscription/${waypoints}`, token)).status).toBe(200);
    await post(vehicleId, token, dataSet(secondsAgo(90), "RUNNING", [waypoint(39.98, -83)]));
    await post(vehicleId, token, dataSet(secondsAgo(60), "OFF", [waypoint(39.99, -83)]));
    const notes =
      await testSql()`select subscription_id from notifications where vehicle_id = ${vehicleId} order by id`;
    // Two waypoints before the deletion; the geofence once, when first found inside: every later
    // post sees the state the one before it wrote.
    expect(notes.map((n) => Number(n.subscription_id))).toEqual([waypoints, inside, waypoints]);
  });

  it("is refused to an app whose access to the account ended in between", async () => {
    const { vehicleId, account } = await driverWithVehicle();
    const client = await clientToken(apps().main.sandbox);
    await post(vehicleId, client, dataSet(secondsAgo(120), "ON"));
    await testSql()`update account_grants set revoked_at = now() where account_id = ${account.id} and
      app_id = (select app_id from app_credentials where client_id = ${apps().main.sandbox.clientId})`;
    const refused = await sandbox.post(`/vehicle/${vehicleId}/dataSet/`, dataSet(secondsAgo(60), "RUNNING"), client);
    expect(refused.status, refused.text).toBe(404);
    const [stored] = await testSql()`select count(*)::int as n from data_sets where vehicle_id = ${vehicleId}`;
    expect(stored!.n).toBe(1);
  });

  it("is refused with a token revoked in between", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    await post(vehicleId, token, dataSet(secondsAgo(120), "ON"));
    await testSql()`update oauth_tokens set revoked_at = now() where access_hash = ${sha256(token)}`;
    expectApiError(
      await sandbox.post(`/vehicle/${vehicleId}/dataSet/`, dataSet(secondsAgo(60), "RUNNING"), token),
      401,
      "UNAUTHORIZED",
    );
  });

  it("is refused in production to an app no longer approved as a data provider", async () => {
    const app = await createPartnerApp(undefined, { dataProvider: true });
    const driver = await createDriver("production", app.production);
    const { vehicleId } = await addVehicle("production", driver.accessToken);
    const production = api("production");
    const first = await production.post(
      `/vehicle/${vehicleId}/dataSet/`,
      dataSet(secondsAgo(120), "ON"),
      driver.accessToken,
    );
    expect(first.status, first.text).toBe(200);
    await testSql()`update partner_apps set data_provider = false where id = (select app_id from app_credentials where client_id = ${app.production.clientId})`;
    expectApiError(
      await production.post(`/vehicle/${vehicleId}/dataSet/`, dataSet(secondsAgo(60), "RUNNING"), driver.accessToken),
      403,
      "FORBIDDEN",
    );
  });

  it("answers a data set stored at that time by other means as the duplicate it is", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const first = await post(vehicleId, token, dataSet(secondsAgo(120), "ON"));
    const at = secondsAgo(60);
    const [other] =
      await testSql()`insert into data_sets (environment, vehicle_id, recorded_at, ignition_status, trip_id)
      values ('sandbox', ${vehicleId}, ${at.toISOString()}::timestamptz, 'RUNNING', ${first.tripId}) returning id`;
    const again = await post(vehicleId, token, dataSet(at, "RUNNING"));
    expect(again.id).toBe(Number(other!.id));
  });

  it("continues the trip a recent post opened, through the trip's own id", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const opened = await post(vehicleId, token, dataSet(secondsAgo(180), "ON"));
    const running = await post(vehicleId, token, dataSet(secondsAgo(120), "RUNNING"));
    const closed = await post(
      vehicleId,
      token,
      dataSet(secondsAgo(60), "OFF", [{ key: "GEN_TRIP_MILEAGE", value: 2.5 }]),
    );
    expect([running.tripId, closed.tripId]).toEqual([opened.tripId, opened.tripId]);
    const trips = (await sandbox.get(`/vehicle/${vehicleId}/trip/`, token)).body.trip;
    expect(trips).toEqual([expect.objectContaining({ id: opened.tripId, mileage: 2.5 })]);
  });
});

describe("posting data sets with the token looked up by ingest", () => {
  it("answers a bad token before a bad body or path, as every other call does", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const bad = { timestamp: "yesterday", ignitionStatus: "SIDEWAYS" };
    const missing = await sandbox.post(`/vehicle/${vehicleId}/dataSet/`, bad);
    expectApiError(missing, 401, "UNAUTHORIZED");
    expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="wayline"');
    for (const path of [`/vehicle/${vehicleId}/dataSet/`, "/vehicle/not-a-vehicle/dataSet/"]) {
      const unknown = await sandbox.post(path, bad, "no-such-token");
      expectApiError(unknown, 401, "UNAUTHORIZED");
      expect(unknown.headers.get("www-authenticate")).toContain('error="invalid_token"');
    }
    expectApiError(await sandbox.post(`/vehicle/${vehicleId}/dataSet/`, bad, token), 400, "VALIDATION");
    expectApiError(
      await sandbox.post("/vehicle/999999999/dataSet/", dataSet(secondsAgo(60), "ON"), token),
      404,
      "NOT_FOUND",
    );
  });
});
