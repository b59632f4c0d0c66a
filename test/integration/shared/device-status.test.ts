import { describe, expect, inject, it } from "vitest";
import { rawSql } from "@/db/client";
import { recordUnknown } from "@/server/devices/ingest/contacts";
import { api, apiBase, clientToken, createDriver, request, testSql, type Env } from "@/test/helpers/api";
import { seedContact } from "@/test/helpers/device-contacts";
import { addVehicle, apps, DATE_TIME, ENVS, expectApiError, uniqueDevice } from "@/test/helpers/fixtures";
import { driverGranting } from "@/test/helpers/grants";
import { webApp } from "@/test/helpers/oauth-flow";
import { wireTime } from "@/test/helpers/telemetry";

// GET /vehicle/{id}/device over real HTTP (docs/devices.md#seeing-the-device): what the gateway kept
// of the id a vehicle names, to the callers that may read the vehicle and no one else. The gateway
// does not run beside the suite's service, so its rows are written here: the refusal of an id no
// vehicle named through the gateway's own writer (its words are what the driver site recognises),
// the other states by SQL.
process.env.DATA_DIR = inject("dataDir");
if (!inject("embedded")) process.env.DATABASE_URL = inject("databaseUrl");

const NOTHING_HEARD = {
  protocol: null,
  connected: false,
  lastContact: null,
  lastRecordTime: null,
  recordsToday: 0,
  lastRefusal: null,
};

/** A driver of the main app with one vehicle naming `deviceId`. */
async function driverWithDevice(env: Env, deviceId: string | null = uniqueDevice()) {
  const driver = await createDriver(env, apps().main[env]);
  const vehicle = await addVehicle(env, driver.accessToken, deviceId ? { deviceId } : {});
  return { ...driver, vehicleId: vehicle.vehicleId, deviceId };
}

describe.each<Env>(ENVS)("GET /vehicle/{id}/device in %s", (env) => {
  it("a vehicle whose device was never heard from → 200, its deviceId and nothing heard, totalRecords null", async () => {
    const { accessToken, vehicleId, deviceId } = await driverWithDevice(env);
    const res = await api(env).get(`/vehicle/${vehicleId}/device`, accessToken);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.body).toEqual({ device: { deviceId, ...NOTHING_HEARD }, totalRecords: null, actions: [] });
  });

  it("a vehicle without a deviceId → 200 with deviceId null and nothing heard", async () => {
    const { accessToken, vehicleId } = await driverWithDevice(env, null);
    const res = await api(env).get(`/vehicle/${vehicleId}/device`, accessToken);
    expect(res.body).toEqual({ device: { deviceId: null, ...NOTHING_HEARD }, totalRecords: null, actions: [] });
  });

  it("an id that tried before the vehicle named it → the refusal, its time and protocol, not connected", async () => {
    const deviceId = uniqueDevice();
    // The gateway's own writer, as a listener calls it for an id no vehicle names.
    await recordUnknown(rawSql(), env, [{ deviceId, protocol: "gt06" }]);
    const [kept] = await testSql()<{ last_refusal_at: Date }[]>`
      select last_refusal_at from device_contacts where environment = ${env} and device_id = ${deviceId}`;
    const { accessToken, vehicleId } = await driverWithDevice(env, deviceId);

    const res = await api(env).get(`/vehicle/${vehicleId}/device`, accessToken);
    expect(res.status, res.text).toBe(200);
    expect(res.body.device).toEqual({
      deviceId,
      protocol: "gt06",
      connected: false,
      lastContact: wireTime(kept!.last_refusal_at),
      lastRecordTime: null,
      recordsToday: 0,
      lastRefusal: { time: wireTime(kept!.last_refusal_at), reason: "no vehicle has this deviceId" },
    });
    expect(res.body.device.lastContact).toMatch(DATE_TIME);
  });

  it("heard from today with a bad CRC since, read by deviceId → records of today, the newest record time, the refusal", async () => {
    const { accessToken, deviceId } = await driverWithDevice(env);
    const row = await seedContact(env, deviceId!, {
      protocol: "teltonika",
      contactAgo: 20,
      recordAgo: 90,
      records: 37,
      refusal: { ago: 20, reason: "bad CRC" },
    });
    const device = (await api(env).get(`/vehicle/${deviceId}/device`, accessToken)).body.device;
    expect(device).toEqual({
      deviceId,
      protocol: "teltonika",
      connected: false,
      lastContact: wireTime(row.last_contact_at),
      lastRecordTime: wireTime(row.last_record_at!),
      recordsToday: 37,
      lastRefusal: { time: wireTime(row.last_refusal_at!), reason: "bad CRC" },
    });
  });

  it("an open connection heard from a minute ago → connected; one heard from longer ago than the idle time → not", async () => {
    const open = await driverWithDevice(env);
    await seedContact(env, open.deviceId!, { protocol: "gt06", contactAgo: 60, connection: "conn-open", records: 3 });
    expect((await api(env).get(`/vehicle/${open.vehicleId}/device`, open.accessToken)).body.device).toMatchObject({
      protocol: "gt06",
      connected: true,
      recordsToday: 3,
    });

    // A connection whose end was never noted (its gateway stopped): nothing heard on it for longer
    // than the gateway keeps an idle connection open (DEVICE_IDLE_SECONDS, 600 by default).
    const stale = await driverWithDevice(env);
    await seedContact(env, stale.deviceId!, { protocol: "gt06", contactAgo: 700, connection: "conn-stale" });
    expect((await api(env).get(`/vehicle/${stale.vehicleId}/device`, stale.accessToken)).body.device.connected).toBe(
      false,
    );
  });

  it("records counted on yesterday (UTC) → recordsToday 0, the newest record time kept", async () => {
    const { accessToken, vehicleId, deviceId } = await driverWithDevice(env);
    const row = await seedContact(env, deviceId!, { recordsDaysAgo: 1, records: 120, recordAgo: 26 * 3600 });
    const device = (await api(env).get(`/vehicle/${vehicleId}/device`, accessToken)).body.device;
    expect(device.recordsToday).toBe(0);
    expect(device.lastRecordTime).toBe(wireTime(row.last_record_at!));
  });

  it("a row of the same id in the other environment is not this vehicle's device", async () => {
    const deviceId = uniqueDevice();
    const other: Env = env === "sandbox" ? "production" : "sandbox";
    await seedContact(other, deviceId, {
      connection: "conn-elsewhere",
      records: 9,
      refusal: { ago: 5, reason: "bad CRC" },
    });
    const { accessToken, vehicleId } = await driverWithDevice(env, deviceId);
    const res = await api(env).get(`/vehicle/${vehicleId}/device`, accessToken);
    expect(res.body.device).toEqual({ deviceId, ...NOTHING_HEARD });
  });

  it("by the app's client-credentials token → the same answer as the driver's token", async () => {
    const { accessToken, clientToken: appToken, vehicleId, deviceId } = await driverWithDevice(env);
    await seedContact(env, deviceId!, { records: 5 });
    const asDriver = await api(env).get(`/vehicle/${vehicleId}/device`, accessToken);
    const asApp = await api(env).get(`/vehicle/${vehicleId}/device`, appToken);
    expect(asApp.status, asApp.text).toBe(200);
    expect(asApp.body).toEqual(asDriver.body);
  });

  it("an unknown vehicle id or deviceId → 404 NOT_FOUND", async () => {
    const { accessToken } = await driverWithDevice(env);
    expectApiError(await api(env).get("/vehicle/2147483000/device", accessToken), 404, "NOT_FOUND");
    expectApiError(await api(env).get(`/vehicle/${uniqueDevice()}/device`, accessToken), 404, "NOT_FOUND");
  });

  it("another driver's vehicle, by id or deviceId, and another app's → 404 NOT_FOUND, as GET /vehicle/{id}", async () => {
    const owner = await driverWithDevice(env);
    await seedContact(env, owner.deviceId!, { records: 4 });
    const neighbour = await createDriver(env, apps().main[env]);
    const foreignApp = await clientToken(apps().other[env]);
    for (const [token, ref] of [
      [neighbour.accessToken, owner.vehicleId],
      [neighbour.accessToken, owner.deviceId],
      [foreignApp, owner.vehicleId],
    ] as const) {
      expectApiError(await api(env).get(`/vehicle/${ref}`, token), 404, "NOT_FOUND");
      expectApiError(await api(env).get(`/vehicle/${ref}/device`, token), 404, "NOT_FOUND");
    }
  });

  it("no token → 401; the token of the other environment → 401", async () => {
    const { accessToken, vehicleId } = await driverWithDevice(env);
    const missing = await api(env).get(`/vehicle/${vehicleId}/device`);
    expectApiError(missing, 401, "UNAUTHORIZED");
    expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="wayline"');
    const other: Env = env === "sandbox" ? "production" : "sandbox";
    expectApiError(await api(other).get(`/vehicle/${vehicleId}/device`, accessToken), 401, "UNAUTHORIZED");
  });

  it("with and without a trailing slash → the same 200; POST → 405 naming GET", async () => {
    const { accessToken, vehicleId } = await driverWithDevice(env);
    const bare = await api(env).get(`/vehicle/${vehicleId}/device`, accessToken);
    const slash = await api(env).get(`/vehicle/${vehicleId}/device/`, accessToken);
    expect(slash.status).toBe(200);
    expect(slash.body).toEqual(bare.body);
    const post = await api(env).post(`/vehicle/${vehicleId}/device`, {}, accessToken);
    expectApiError(post, 405, "METHOD_NOT_ALLOWED");
    expect(post.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });
});

describe("GET /vehicle/{id}/device and the scopes", () => {
  it("a grant without data and without location reads the device, as it reads the vehicle", async () => {
    const { token } = await driverGranting(webApp(), "account");
    const deviceId = uniqueDevice();
    const vehicle = await addVehicle("sandbox", token, { deviceId });
    await seedContact("sandbox", deviceId, { records: 2, connection: "conn-scoped" });
    expect((await api("sandbox").get(`/vehicle/${vehicle.vehicleId}`, token)).status).toBe(200);
    const res = await api("sandbox").get(`/vehicle/${vehicle.vehicleId}/device`, token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.device).toMatchObject({ deviceId, connected: true, recordsToday: 2 });
    // Its data is another matter: the scope it lacks is named.
    expectApiError(await api("sandbox").get(`/vehicle/${vehicle.vehicleId}/data/`, token), 403, "FORBIDDEN");
  });

  it("OPTIONS preflight → 204, any origin, Authorization allowed", async () => {
    const res = await request("OPTIONS", `${apiBase("sandbox")}/vehicle/1/device`, {
      headers: {
        Origin: "https://app.partner.example",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "authorization",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect((res.headers.get("access-control-allow-headers") ?? "").toLowerCase()).toContain("authorization");
  });
});
