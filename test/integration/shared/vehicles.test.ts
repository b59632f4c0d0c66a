import { beforeAll, describe, expect, it } from "vitest";
import { api, apiBase, clientToken, createDriver, request, testSql, uniqueName, type Env } from "@/test/helpers/api";
import { addVehicle, apps, ENVS, expectApiError, expectFieldErrors, uniqueDevice } from "@/test/helpers/fixtures";

// Vehicles over real HTTP, as docs/api.md describes.

type Driver = Awaited<ReturnType<typeof createDriver>>;

describe.each<Env>(ENVS)("vehicles in %s", (env) => {
  let driver: Driver;
  beforeAll(async () => {
    driver = await createDriver(env, apps().main[env]);
  });

  describe("POST /vehicle/", () => {
    it("with a user token → 200, the vehicle on the token's account with every field present", async () => {
      const res = await api(env).post("/vehicle/", { label: "Family van" }, driver.accessToken);
      expect(res.status, res.text).toBe(200);
      expect(res.body.totalRecords).toBeNull();
      expect(res.body.actions).toEqual([]);
      expect(res.body.vehicle).toEqual({
        vehicleId: expect.any(Number),
        accountId: driver.account.id,
        name: "Unidentified Vehicle",
        deviceId: null,
        vin: null,
        label: "Family van",
        autoAssignDevice: true,
        mileage: 0,
        lastWaypoint: null,
        locationPaused: false,
        running: false,
        lastRunningTimestamp: null,
        year: null,
        make: null,
        model: null,
      });
    });

    it("with a client token and accountId → 200 on that account", async () => {
      const res = await api(env).post(
        "/vehicle/",
        { accountId: driver.account.id, label: "Fleet car" },
        driver.clientToken,
      );
      expect(res.status, res.text).toBe(200);
      expect(res.body.vehicle).toMatchObject({ accountId: driver.account.id, label: "Fleet car" });
      const seen = await api(env).get(`/vehicle/${res.body.vehicle.vehicleId}`, driver.accessToken);
      expect(seen.status).toBe(200);
    });

    it("with a client token and accountId as a numeric string → 200", async () => {
      const res = await api(env).post("/vehicle/", { accountId: String(driver.account.id) }, driver.clientToken);
      expect(res.status, res.text).toBe(200);
      expect(res.body.vehicle.accountId).toBe(driver.account.id);
    });

    it("with a client token and no accountId → 400 VALIDATION, accountId REQUIRED", async () => {
      expectFieldErrors(await api(env).post("/vehicle/", { label: "Nowhere" }, driver.clientToken), {
        accountId: "REQUIRED",
      });
    });

    it("with a client token and another app's accountId → 404", async () => {
      const foreign = await createDriver(env, apps().other[env]);
      expectApiError(
        await api(env).post("/vehicle/", { accountId: foreign.account.id }, driver.clientToken),
        404,
        "NOT_FOUND",
      );
      const listed = await api(env).get("/vehicle/", foreign.accessToken);
      expect(listed.body.vehicle).toEqual([]);
    });

    it("with a client token and an unknown accountId → 404", async () => {
      expectApiError(
        await api(env).post("/vehicle/", { accountId: 2_000_000_000 }, driver.clientToken),
        404,
        "NOT_FOUND",
      );
    });

    it("with a user token, an accountId of another account is ignored: the vehicle goes to the token's account", async () => {
      const other = await createDriver(env, apps().main[env]);
      const res = await api(env).post("/vehicle/", { accountId: other.account.id }, driver.accessToken);
      expect(res.status, res.text).toBe(200);
      expect(res.body.vehicle.accountId).toBe(driver.account.id);
    });

    it('with mileage "1200.5" as a numeric string → 200, mileage a number', async () => {
      const res = await api(env).post("/vehicle/", { mileage: "1200.5" }, driver.accessToken);
      expect(res.status, res.text).toBe(200);
      expect(res.body.vehicle.mileage).toBe(1200.5);
    });

    it("with a lower-case VIN → 200, stored upper case", async () => {
      const res = await api(env).post("/vehicle/", { vin: "1hgcm82633a004352" }, driver.accessToken);
      expect(res.status, res.text).toBe(200);
      expect(res.body.vehicle.vin).toBe("1HGCM82633A004352");
    });

    it("with a bad VIN → 400 VALIDATION, vin INVALID", async () => {
      expectFieldErrors(await api(env).post("/vehicle/", { vin: "1HGCM82633A00435O" }, driver.accessToken), {
        vin: "INVALID",
      });
      expectFieldErrors(await api(env).post("/vehicle/", { vin: "TOO-SHORT" }, driver.accessToken), { vin: "INVALID" });
    });

    it("with negative mileage → 400 VALIDATION, mileage INVALID", async () => {
      expectFieldErrors(await api(env).post("/vehicle/", { mileage: -1 }, driver.accessToken), { mileage: "INVALID" });
      expectFieldErrors(await api(env).post("/vehicle/", { mileage: "-10" }, driver.accessToken), {
        mileage: "INVALID",
      });
    });

    it("with wrong types → 400 VALIDATION, each field INVALID", async () => {
      expectFieldErrors(
        await api(env).post("/vehicle/", { label: 5, autoAssignDevice: "maybe", mileage: "lots" }, driver.accessToken),
        {
          label: "INVALID",
          autoAssignDevice: "INVALID",
          mileage: "INVALID",
        },
      );
    });

    it("with a deviceId in use on a vehicle with autoAssignDevice false → 409 CANNOTPERSIST, deviceId UNIQUE", async () => {
      const serial = uniqueDevice();
      const holder = await addVehicle(env, driver.accessToken, { deviceId: serial, autoAssignDevice: false });
      const res = await api(env).post("/vehicle/", { deviceId: serial }, driver.accessToken);
      expect(expectApiError(res, 409, "CANNOTPERSIST").fieldErrors.map((f) => [f.fieldName, f.errorCode])).toEqual([
        ["deviceId", "UNIQUE"],
      ]);
      expect((await api(env).get(`/vehicle/${holder.vehicleId}`, driver.accessToken)).body.vehicle.deviceId).toBe(
        serial,
      );
    });

    it("with a deviceId in use when the new vehicle has autoAssignDevice false → 409 UNIQUE", async () => {
      const serial = uniqueDevice();
      const holder = await addVehicle(env, driver.accessToken, { deviceId: serial });
      expectApiError(
        await api(env).post("/vehicle/", { deviceId: serial, autoAssignDevice: false }, driver.accessToken),
        409,
        "CANNOTPERSIST",
      );
      expect((await api(env).get(`/vehicle/${serial}`, driver.accessToken)).body.vehicle.vehicleId).toBe(
        holder.vehicleId,
      );
    });

    it("with the deviceId of another of the caller's vehicles, both auto-assign → 200, the device moves", async () => {
      const serial = uniqueDevice();
      const first = await addVehicle(env, driver.accessToken, { deviceId: serial });
      const second = await addVehicle(env, driver.accessToken, { deviceId: serial });
      expect(second.deviceId).toBe(serial);
      expect((await api(env).get(`/vehicle/${first.vehicleId}`, driver.accessToken)).body.vehicle.deviceId).toBeNull();
      expect((await api(env).get(`/vehicle/${serial}`, driver.accessToken)).body.vehicle.vehicleId).toBe(
        second.vehicleId,
      );
    });

    it("with the deviceId of another app's driver's vehicle → 409, and the device stays where it was", async () => {
      const serial = uniqueDevice();
      const foreign = await createDriver(env, apps().other[env]);
      const theirs = await addVehicle(env, foreign.accessToken, { deviceId: serial });
      expectApiError(await api(env).post("/vehicle/", { deviceId: serial }, driver.accessToken), 409, "CANNOTPERSIST");
      expectApiError(
        await api(env).post("/vehicle/", { accountId: driver.account.id, deviceId: serial }, driver.clientToken),
        409,
        "CANNOTPERSIST",
      );
      const stays = await api(env).get(`/vehicle/${serial}`, foreign.accessToken);
      expect(stays.body.vehicle.vehicleId).toBe(theirs.vehicleId);
      // And the caller cannot read it through the serial either.
      expectApiError(await api(env).get(`/vehicle/${serial}`, driver.accessToken), 404, "NOT_FOUND");
    });

    it("with the deviceId of another driver of the same app, using the driver's user token → 409", async () => {
      const serial = uniqueDevice();
      const neighbour = await createDriver(env, apps().main[env]);
      const theirs = await addVehicle(env, neighbour.accessToken, { deviceId: serial });
      expectApiError(await api(env).post("/vehicle/", { deviceId: serial }, driver.accessToken), 409, "CANNOTPERSIST");
      expect((await api(env).get(`/vehicle/${serial}`, neighbour.accessToken)).body.vehicle.vehicleId).toBe(
        theirs.vehicleId,
      );
    });

    it("the same deviceId in the other environment is a different device", async () => {
      const serial = uniqueDevice();
      const otherEnv: Env = env === "sandbox" ? "production" : "sandbox";
      const there = await createDriver(otherEnv, apps().main[otherEnv]);
      await addVehicle(otherEnv, there.accessToken, { deviceId: serial, autoAssignDevice: false });
      const here = await addVehicle(env, driver.accessToken, { deviceId: serial, autoAssignDevice: false });
      expect(here.deviceId).toBe(serial);
    });
  });

  describe("GET, POST and DELETE /vehicle/{id}", () => {
    it("GET by vehicleId and by deviceId → the same vehicle, totalRecords null", async () => {
      const serial = uniqueDevice();
      const v = await addVehicle(env, driver.accessToken, { deviceId: serial, label: "By serial" });
      const byId = await api(env).get(`/vehicle/${v.vehicleId}`, driver.accessToken);
      const bySerial = await api(env).get(`/vehicle/${serial}`, driver.accessToken);
      expect(byId.status).toBe(200);
      expect(byId.body).toEqual({ vehicle: v, totalRecords: null, actions: [] });
      expect(bySerial.body).toEqual(byId.body);
      expect((await api(env).get(`/vehicle/${v.vehicleId}`, driver.clientToken)).body).toEqual(byId.body);
    });

    it("POST by deviceId with a partial body → only the fields sent change", async () => {
      const serial = uniqueDevice();
      const v = await addVehicle(env, driver.accessToken, {
        deviceId: serial,
        label: "Old",
        mileage: 10,
        vin: "1HGCM82633A004352",
      });
      const res = await api(env).post(`/vehicle/${serial}`, { mileage: "25" }, driver.accessToken);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ vehicle: { ...v, mileage: 25 }, totalRecords: null, actions: [] });
    });

    it("POST echoing the whole object read before → 200, read-only fields ignored", async () => {
      const serial = uniqueDevice();
      const v = await addVehicle(env, driver.accessToken, { deviceId: serial, label: "Before", mileage: 100 });
      const read = (await api(env).get(`/vehicle/${v.vehicleId}`, driver.accessToken)).body.vehicle;
      const echoed = {
        ...read,
        label: "After",
        vehicleId: 1,
        accountId: 1,
        name: "1999 Fake Car",
        running: true,
        lastRunningTimestamp: "20200101T000000+0000",
        lastWaypoint: { timestamp: "20200101T000000+0000", latitude: 1, longitude: 2 },
        year: "1999",
        make: "Fake",
        model: "Car",
      };
      const res = await api(env).post(`/vehicle/${v.vehicleId}`, echoed, driver.accessToken);
      expect(res.status, res.text).toBe(200);
      expect(res.body.vehicle).toEqual({ ...read, label: "After" });
    });

    it("POST with nulls → nothing cleared", async () => {
      const serial = uniqueDevice();
      const v = await addVehicle(env, driver.accessToken, {
        deviceId: serial,
        label: "Kept",
        vin: "1HGCM82633A004352",
      });
      const res = await api(env).post(
        `/vehicle/${v.vehicleId}`,
        { deviceId: null, label: null, vin: null, mileage: null, autoAssignDevice: null },
        driver.accessToken,
      );
      expect(res.status, res.text).toBe(200);
      expect(res.body.vehicle).toEqual(v);
    });

    it('POST with label "" and deviceId "" → both cleared, and the device is free for another vehicle', async () => {
      const serial = uniqueDevice();
      const v = await addVehicle(env, driver.accessToken, {
        deviceId: serial,
        label: "Temporary",
        autoAssignDevice: false,
      });
      const res = await api(env).post(`/vehicle/${v.vehicleId}`, { label: "", deviceId: "" }, driver.accessToken);
      expect(res.status, res.text).toBe(200);
      expect(res.body.vehicle).toMatchObject({ label: null, deviceId: null });
      expectApiError(await api(env).get(`/vehicle/${serial}`, driver.accessToken), 404, "NOT_FOUND");
      const next = await addVehicle(env, driver.accessToken, { deviceId: serial, autoAssignDevice: false });
      expect(next.deviceId).toBe(serial);
    });

    it("POST assigning a device held by a vehicle with autoAssignDevice false → 409 UNIQUE, both vehicles unchanged", async () => {
      const serial = uniqueDevice();
      const holder = await addVehicle(env, driver.accessToken, { deviceId: serial, autoAssignDevice: false });
      const taker = await addVehicle(env, driver.accessToken, { label: "Taker" });
      expectApiError(
        await api(env).post(`/vehicle/${taker.vehicleId}`, { deviceId: serial, label: "Changed" }, driver.accessToken),
        409,
        "CANNOTPERSIST",
      );
      expect((await api(env).get(`/vehicle/${holder.vehicleId}`, driver.accessToken)).body.vehicle.deviceId).toBe(
        serial,
      );
      // The failed update is all or nothing.
      expect((await api(env).get(`/vehicle/${taker.vehicleId}`, driver.accessToken)).body.vehicle).toMatchObject({
        deviceId: null,
        label: "Taker",
      });
    });

    it("POST moving a device between two auto-assign vehicles of the caller → 200, the old vehicle loses it", async () => {
      const serial = uniqueDevice();
      const from = await addVehicle(env, driver.accessToken, { deviceId: serial });
      const to = await addVehicle(env, driver.accessToken);
      const res = await api(env).post(`/vehicle/${to.vehicleId}`, { deviceId: serial }, driver.accessToken);
      expect(res.status, res.text).toBe(200);
      expect(res.body.vehicle.deviceId).toBe(serial);
      expect((await api(env).get(`/vehicle/${from.vehicleId}`, driver.accessToken)).body.vehicle.deviceId).toBeNull();
    });

    it("POST with a bad VIN or negative mileage → 400 VALIDATION and nothing changes", async () => {
      const v = await addVehicle(env, driver.accessToken, { mileage: 5 });
      expectFieldErrors(
        await api(env).post(`/vehicle/${v.vehicleId}`, { vin: "XYZ", mileage: -3 }, driver.accessToken),
        { vin: "INVALID", mileage: "INVALID" },
      );
      expect((await api(env).get(`/vehicle/${v.vehicleId}`, driver.accessToken)).body.vehicle).toEqual(v);
    });

    it("DELETE by vehicleId → result OK, then 404", async () => {
      const v = await addVehicle(env, driver.accessToken);
      const res = await api(env).del(`/vehicle/${v.vehicleId}`, driver.accessToken);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ result: "OK", totalRecords: 1, actions: [] });
      expectApiError(await api(env).get(`/vehicle/${v.vehicleId}`, driver.accessToken), 404, "NOT_FOUND");
      expectApiError(await api(env).del(`/vehicle/${v.vehicleId}`, driver.accessToken), 404, "NOT_FOUND");
      expect(await testSql()`select id from vehicles where id = ${v.vehicleId}`).toHaveLength(0);
    });

    it("DELETE by deviceId with a client token → result OK, and the device is free again", async () => {
      const serial = uniqueDevice();
      const v = await addVehicle(env, driver.accessToken, { deviceId: serial, autoAssignDevice: false });
      const res = await api(env).del(`/vehicle/${serial}`, driver.clientToken);
      expect(res.body).toEqual({ result: "OK", totalRecords: 1, actions: [] });
      expectApiError(await api(env).get(`/vehicle/${v.vehicleId}`, driver.accessToken), 404, "NOT_FOUND");
      expect((await addVehicle(env, driver.accessToken, { deviceId: serial, autoAssignDevice: false })).deviceId).toBe(
        serial,
      );
    });
  });

  describe("paths with and without a trailing slash", () => {
    it("GET /vehicle and /vehicle/ → the same 200 list, no redirect", async () => {
      const bare = await api(env).get("/vehicle", driver.accessToken);
      const slash = await api(env).get("/vehicle/", driver.accessToken);
      expect([bare.status, slash.status]).toEqual([200, 200]);
      expect(bare.headers.get("location")).toBeNull();
      expect(bare.body).toEqual(slash.body);
    });

    it("POST /vehicle and /vehicle/ → 200 each, no redirect", async () => {
      for (const path of ["/vehicle", "/vehicle/"]) {
        const res = await api(env).post(path, { label: `via ${path}` }, driver.accessToken);
        expect(res.status, `${path}: ${res.text}`).toBe(200);
        expect(res.body.vehicle.label).toBe(`via ${path}`);
      }
    });

    it("GET, POST and DELETE /vehicle/{id}/ with a trailing slash → 200, no redirect", async () => {
      const v = await addVehicle(env, driver.accessToken, { label: "Slash" });
      const read = await api(env).get(`/vehicle/${v.vehicleId}/`, driver.accessToken);
      expect(read.status).toBe(200);
      expect(read.body.vehicle).toEqual(v);
      const updated = await api(env).post(`/vehicle/${v.vehicleId}/`, { label: "Slashed" }, driver.accessToken);
      expect(updated.status).toBe(200);
      expect(updated.body.vehicle.label).toBe("Slashed");
      expect((await api(env).del(`/vehicle/${v.vehicleId}/`, driver.accessToken)).body.result).toBe("OK");
    });

    it("GET /account and /account/, POST /account → 200, no redirect", async () => {
      const bare = await api(env).get("/account", driver.accessToken);
      expect(bare.status).toBe(200);
      expect(bare.body).toEqual((await api(env).get("/account/", driver.accessToken)).body);
      const created = await request("POST", `${apiBase(env)}/account`, {
        token: await clientToken(apps().main[env]),
        json: { firstName: "No", lastName: "Slash", username: uniqueName("noslash"), password: "long-enough-1" },
      });
      expect(created.status, created.text).toBe(200);
    });
  });
});

describe("GET /vehicle/ list", () => {
  it("default page size 50 with a next action when there are 51 vehicles; the next page holds the 51st", async () => {
    const driver = await createDriver("sandbox", apps().main.sandbox);
    const created: number[] = [];
    for (let batch = 0; batch < 51; batch += 17) {
      const vs = await Promise.all(
        Array.from({ length: 17 }, (_, i) => addVehicle("sandbox", driver.accessToken, { label: `Car ${batch + i}` })),
      );
      created.push(...vs.map((v) => v.vehicleId));
    }
    created.sort((a, b) => a - b);

    const first = await api("sandbox").get("/vehicle/", driver.accessToken);
    expect(first.status).toBe(200);
    expect(first.body.vehicle).toHaveLength(50);
    expect(first.body.totalRecords).toBe(51);
    expect(first.body.vehicle.map((v: { vehicleId: number }) => v.vehicleId)).toEqual(created.slice(0, 50));
    expect(first.body.actions).toEqual([
      {
        name: "next",
        uri: `${apiBase("sandbox")}/vehicle/?searchLimit=50&searchOffset=50`,
        methods: null,
        inputs: null,
      },
    ]);

    const next = await request("GET", first.body.actions[0].uri, { token: driver.accessToken });
    expect(next.status).toBe(200);
    expect(next.body.vehicle.map((v: { vehicleId: number }) => v.vehicleId)).toEqual(created.slice(50));
    expect(next.body.totalRecords).toBe(51);
    expect(next.body.actions.map((a: { name: string }) => a.name)).toEqual(["previous"]);

    // sortOrder=desc puts the newest first.
    const desc = await api("sandbox").get("/vehicle/?sortOrder=desc&searchLimit=1", driver.accessToken);
    expect(desc.body.vehicle.map((v: { vehicleId: number }) => v.vehicleId)).toEqual([created[50]]);
  });

  it("a driver with no vehicles → 200 with [] and totalRecords 0", async () => {
    const driver = await createDriver("sandbox", apps().main.sandbox);
    const res = await api("sandbox").get("/vehicle/", driver.accessToken);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ vehicle: [], totalRecords: 0, actions: [] });
  });

  it("a client token lists its app's drivers' vehicles, not another app's", async () => {
    const mine = await createDriver("sandbox", apps().main.sandbox);
    const theirs = await createDriver("sandbox", apps().other.sandbox);
    const a = await addVehicle("sandbox", mine.accessToken);
    const b = await addVehicle("sandbox", theirs.accessToken);
    const listed = (
      await api("sandbox").get("/vehicle/?sortOrder=desc&searchLimit=500", mine.clientToken)
    ).body.vehicle.map((v: { vehicleId: number }) => v.vehicleId);
    expect(listed).toContain(a.vehicleId);
    expect(listed).not.toContain(b.vehicleId);
  });
});
