import { describe, expect, it } from "vitest";
import { api, createDriver, testSql, type Env } from "@/test/helpers/api";
import { baseUrl, Browser, visibleText } from "@/test/helpers/browser";
import { addVehicle, apps, expectApiError, uniqueDevice } from "@/test/helpers/fixtures";
import { simulatedTrip, wireTime } from "@/test/helpers/telemetry";

// The driver site's pages and /me/* data routes, over real HTTP with real sessions: each driver
// sees and changes only their own account, vehicles and trips; mutations give the API's field
// errors; writes from another site are refused.

type Reply = { status: number; headers: Headers; body: any; text: string };

/** A JSON request with the browser's session cookie and address, as the site's own forms send it. */
async function call(
  browser: Browser,
  method: string,
  path: string,
  json?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const all: Record<string, string> = { "X-Forwarded-For": browser.address, ...headers };
  if (browser.cookies.size > 0) all.Cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  let body: string | undefined;
  if (json !== undefined) {
    body = typeof json === "string" ? json : JSON.stringify(json);
    all["Content-Type"] ??= "application/json";
  }
  const res = await fetch(baseUrl() + path, { method, headers: all, body, redirect: "manual" });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

const PASSWORD = "correct-horse-1";

/** A driver made the partner way (API), with a vehicle, signed in to the site in a browser of their own. */
async function signedInDriver(env: Env = "sandbox", label = "Driver car") {
  const driver = await createDriver(env, apps().main[env]);
  const vehicle = await addVehicle(env, driver.accessToken, { label, deviceId: uniqueDevice() });
  const browser = new Browser();
  const signIn = await browser.signIn(env, driver.account.username, PASSWORD);
  expect(signIn.problem).toBeNull();
  return { ...driver, vehicle, browser };
}

async function withTrip(env: Env, token: string, vehicleId: number) {
  const posted = await api(env).post(
    `/vehicle/${vehicleId}/dataSet/`,
    simulatedTrip(new Date(Date.now() - 3_600_000), { lat: 40.7128, lon: -74.006 }),
    token,
  );
  expect(posted.status, posted.text).toBe(200);
  const trips = await api(env).get(`/vehicle/${vehicleId}/trip/`, token);
  return trips.body.trip[0].id as number;
}

describe("driver site: who may see what", () => {
  it("/me/* without a session → 401 UNAUTHORIZED in the API's error shape; pages send the browser to /login", async () => {
    const anonymous = new Browser();
    for (const [method, path] of [
      ["GET", "/me/positions"],
      ["GET", "/me/account"],
      ["GET", "/me/vehicles/1"],
    ] as const) {
      const res = await call(anonymous, method, path);
      expect(res.status, path).toBe(401);
      expect(res.body.error).toMatchObject({ httpStatus: 401, errorCode: "UNAUTHORIZED" });
    }
    const page = await anonymous.get("/map");
    expect(page.status).toBe(307);
    expect(page.location).toContain("/login?callbackUrl=%2Fmap");
  });

  it("a driver's map lists their vehicles with the last position the device reported", async () => {
    const a = await signedInDriver("sandbox", "Alpha wagon");
    await withTrip("sandbox", a.accessToken, a.vehicle.vehicleId);
    const positions = await call(a.browser, "GET", "/me/positions");
    expect(positions.status).toBe(200);
    expect(positions.body.vehicles).toHaveLength(1);
    expect(positions.body.vehicles[0]).toMatchObject({
      vehicleId: a.vehicle.vehicleId,
      label: "Alpha wagon",
      running: false,
      lastWaypoint: { latitude: 40.7228, longitude: -73.996 },
    });
    const page = await a.browser.get("/map");
    expect(page.status).toBe(200);
    expect(visibleText(page.text)).toContain("Alpha wagon");
  });

  it("a second driver's session cannot read, edit or delete the first's vehicle, trips or account", async () => {
    const a = await signedInDriver("sandbox", "Owner's car");
    const b = await signedInDriver("sandbox", "Intruder's car");
    const tripId = await withTrip("sandbox", a.accessToken, a.vehicle.vehicleId);
    const aId = a.vehicle.vehicleId;

    const list = await call(b.browser, "GET", "/me/positions");
    expect(list.body.vehicles.map((v: { vehicleId: number }) => v.vehicleId)).toEqual([b.vehicle.vehicleId]);

    expectApiError(await call(b.browser, "GET", `/me/vehicles/${aId}`), 404, "NOT_FOUND");
    expectApiError(await call(b.browser, "POST", `/me/vehicles/${aId}`, { label: "Stolen" }), 404, "NOT_FOUND");
    expectApiError(await call(b.browser, "DELETE", `/me/vehicles/${aId}`), 404, "NOT_FOUND");

    for (const path of [
      `/vehicles/${aId}`,
      `/vehicles/${aId}/trips/${tripId}`,
      `/vehicles/${b.vehicle.vehicleId}/trips/${tripId}`,
    ]) {
      const page = await b.browser.get(path);
      expect(page.status, path).toBe(404);
      expect(visibleText(page.text)).not.toContain("Owner's car");
    }

    const account = await call(b.browser, "GET", "/me/account");
    expect(account.body.account.id).toBe(b.account.id);
    const wrongConfirm = await call(b.browser, "DELETE", "/me/account", { confirmUsername: a.account.username });
    expect(wrongConfirm.status).toBe(400);

    // Nothing of the first driver changed.
    const still = await api("sandbox").get(`/vehicle/${aId}`, a.accessToken);
    expect(still.status).toBe(200);
    expect(still.body.vehicle.label).toBe("Owner's car");
    expect((await api("sandbox").get(`/account/${a.account.id}`, a.accessToken)).status).toBe(200);
    expect((await a.browser.get(`/vehicles/${aId}/trips/${tripId}`)).status).toBe(200);
  });

  it("a sandbox session does not reach a production vehicle of the same person", async () => {
    const prod = await createDriver("production", apps().main.production);
    const prodVehicle = await addVehicle("production", prod.accessToken, { label: "Production car" });
    const sandbox = await signedInDriver("sandbox");
    expectApiError(await call(sandbox.browser, "GET", `/me/vehicles/${prodVehicle.vehicleId}`), 404, "NOT_FOUND");
  });

  it("ids that are not numbers name nothing: 404", async () => {
    const a = await signedInDriver();
    expectApiError(await call(a.browser, "GET", "/me/vehicles/abc"), 404, "NOT_FOUND");
    expect((await a.browser.get("/vehicles/abc")).status).toBe(404);
    expect((await a.browser.get(`/vehicles/${a.vehicle.vehicleId}/trips/x1`)).status).toBe(404);
  });
});

describe("driver site: editing vehicles", () => {
  it("POST /me/vehicles/{id} gives the API's field errors for the same values", async () => {
    const a = await signedInDriver();
    const bad = { vin: "12345", deviceId: "has spaces" };
    const site = await call(a.browser, "POST", `/me/vehicles/${a.vehicle.vehicleId}`, bad);
    const viaApi = await api("sandbox").post(`/vehicle/${a.vehicle.vehicleId}`, bad, a.accessToken);
    const siteError = expectApiError(site, 400, "VALIDATION");
    expect(siteError.fieldErrors).toEqual(viaApi.body.error.fieldErrors);
    expect(siteError.fieldErrors.map((f) => f.fieldName).sort()).toEqual(["deviceId", "vin"]);
  });

  it("a device serial another account's vehicle uses → 409 CANNOTPERSIST with field code UNIQUE", async () => {
    const a = await signedInDriver();
    const b = await signedInDriver();
    const res = await call(b.browser, "POST", `/me/vehicles/${b.vehicle.vehicleId}`, { deviceId: a.vehicle.deviceId });
    const error = expectApiError(res, 409, "CANNOTPERSIST");
    expect(error.fieldErrors).toEqual([expect.objectContaining({ fieldName: "deviceId", errorCode: "UNIQUE" })]);
  });

  it("a valid edit changes label, VIN and auto-assignment; an empty label clears it", async () => {
    const a = await signedInDriver();
    const res = await call(a.browser, "POST", `/me/vehicles/${a.vehicle.vehicleId}`, {
      label: "Renamed",
      vin: "1HGCM82633A004352",
      autoAssignDevice: false,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.vehicle).toMatchObject({
      label: "Renamed",
      vin: "1HGCM82633A004352",
      autoAssignDevice: false,
      name: "2003 Honda Accord",
    });
    const cleared = await call(a.browser, "POST", `/me/vehicles/${a.vehicle.vehicleId}`, { label: "" });
    expect(cleared.body.vehicle.label).toBeNull();
    expect((await api("sandbox").get(`/vehicle/${a.vehicle.vehicleId}`, a.accessToken)).body.vehicle).toMatchObject({
      label: null,
      vin: "1HGCM82633A004352",
    });
  });

  it("adding a vehicle on the site puts it in the driver's account", async () => {
    const a = await signedInDriver();
    const res = await call(a.browser, "POST", "/me/vehicles", { label: "Second car", deviceId: "", vin: "" });
    expect(res.status, res.text).toBe(200);
    const listed = await api("sandbox").get("/vehicle/", a.accessToken);
    expect(listed.body.vehicle.map((v: { label: string }) => v.label).sort()).toEqual(["Driver car", "Second car"]);
  });

  it("deleting a vehicle removes it and its trips for good", async () => {
    const a = await signedInDriver();
    const tripId = await withTrip("sandbox", a.accessToken, a.vehicle.vehicleId);
    const res = await call(a.browser, "DELETE", `/me/vehicles/${a.vehicle.vehicleId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "OK" });
    expect((await api("sandbox").get(`/vehicle/${a.vehicle.vehicleId}`, a.accessToken)).status).toBe(404);
    const [left] = await testSql()`select count(*)::int as n from trips where id = ${tripId}`;
    expect(left!.n).toBe(0);
  });

  it("writes that say they come from another site are refused (403) and change nothing", async () => {
    const a = await signedInDriver();
    const res = await call(
      a.browser,
      "POST",
      `/me/vehicles/${a.vehicle.vehicleId}`,
      { label: "Forged" },
      { Origin: "https://evil.example" },
    );
    expectApiError(res, 403, "FORBIDDEN");
    const fetchSite = await call(a.browser, "DELETE", `/me/vehicles/${a.vehicle.vehicleId}`, undefined, {
      "Sec-Fetch-Site": "cross-site",
    });
    expect(fetchSite.status).toBe(403);
    expect((await api("sandbox").get(`/vehicle/${a.vehicle.vehicleId}`, a.accessToken)).body.vehicle.label).toBe(
      "Driver car",
    );
  });

  it("a write that is not JSON → 415; malformed JSON → 400", async () => {
    const a = await signedInDriver();
    const form = await call(a.browser, "POST", `/me/vehicles/${a.vehicle.vehicleId}`, "label=x", {
      "Content-Type": "application/x-www-form-urlencoded",
    });
    expectApiError(form, 415, "UNSUPPORTED_MEDIA_TYPE");
    const broken = await call(a.browser, "POST", `/me/vehicles/${a.vehicle.vehicleId}`, "{not json");
    expectApiError(broken, 400, "VALIDATION");
  });
});

describe("driver site: the account", () => {
  it("POST /me/account validates like the API and saves the fields", async () => {
    const a = await signedInDriver();
    const bad = await call(a.browser, "POST", "/me/account", { timeZone: "Mars/Olympus", email: "nope" });
    const error = expectApiError(bad, 400, "VALIDATION");
    expect(error.fieldErrors.map((f) => f.fieldName).sort()).toEqual(["email", "timeZone"]);
    const ok = await call(a.browser, "POST", "/me/account", {
      firstName: "Ada",
      lastName: "Byron",
      timeZone: "Europe/Berlin",
      phone: "",
      preferredContact: "sms",
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.account).toMatchObject({
      firstName: "Ada",
      lastName: "Byron",
      timeZone: "Europe/Berlin",
      phone: null,
      preferredContact: "SMS",
    });
    expect(ok.body.account).not.toHaveProperty("password");
    expect((await api("sandbox").get(`/account/${a.account.id}`, a.accessToken)).body.account.timeZone).toBe(
      "Europe/Berlin",
    );
  });

  it("the password changes only with the current one, and the new one signs in", async () => {
    const a = await signedInDriver();
    const wrong = await call(a.browser, "POST", "/me/account/password", {
      currentPassword: "not-it",
      password: "new-password-2",
    });
    expect(expectApiError(wrong, 400, "VALIDATION").fieldErrors).toEqual([
      expect.objectContaining({ fieldName: "currentPassword" }),
    ]);
    const short = await call(a.browser, "POST", "/me/account/password", {
      currentPassword: PASSWORD,
      password: "short",
    });
    expect(short.body.error.fieldErrors[0].fieldName).toBe("password");
    const ok = await call(a.browser, "POST", "/me/account/password", {
      currentPassword: PASSWORD,
      password: "new-password-2",
    });
    expect(ok.status).toBe(200);
    expect((await new Browser().signIn("sandbox", a.account.username, "new-password-2")).problem).toBeNull();
    expect((await new Browser().signIn("sandbox", a.account.username, PASSWORD)).status).toBe(401);
  });

  it("deleting the account needs its username typed, then removes it with its vehicles and data; the session ends", async () => {
    const a = await signedInDriver();
    await withTrip("sandbox", a.accessToken, a.vehicle.vehicleId);
    const unconfirmed = await call(a.browser, "DELETE", "/me/account", { confirmUsername: "someone-else" });
    expect(expectApiError(unconfirmed, 400, "VALIDATION").fieldErrors[0]!.fieldName).toBe("confirmUsername");
    expect((await api("sandbox").get(`/vehicle/${a.vehicle.vehicleId}`, a.accessToken)).status).toBe(200);

    const res = await call(a.browser, "DELETE", "/me/account", { confirmUsername: a.account.username });
    expect(res.status, res.text).toBe(200);
    expect((await call(a.browser, "GET", "/me/positions")).status).toBe(401);
    expect((await api("sandbox").get("/vehicle/", a.accessToken)).status).toBe(401);
    const [rows] =
      await testSql()`select (select count(*) from vehicles where account_id = ${a.account.id})::int as vehicles,
                                          (select count(*) from data_sets where vehicle_id = ${a.vehicle.vehicleId})::int as sets`;
    expect(rows).toEqual({ vehicles: 0, sets: 0 });
  });
});

describe("driver site: trip replay", () => {
  it("the replay page shows the trip's totals from its track", async () => {
    const a = await signedInDriver();
    const tripId = await withTrip("sandbox", a.accessToken, a.vehicle.vehicleId);
    const page = await a.browser.get(`/vehicles/${a.vehicle.vehicleId}/trips/${tripId}`);
    expect(page.status).toBe(200);
    const text = visibleText(page.text);
    // 10 RUNNING points a minute apart, 0.001° north and east each: about 0.86 miles in 11 minutes.
    expect(text).toMatch(/Distance 0\.9 mi/);
    expect(text).toContain("Duration 11 min 00 s");
    expect(text).toContain("Top speed 30 mph");
    expect(text).toContain("4.2 mi reported by the device");
  });

  it("the track takes waypoints stamped with a time of their own, in another month than their data set", async () => {
    const a = await signedInDriver();
    const start = new Date(Date.now() - 3_600_000);
    const earlier = wireTime(new Date(start.getTime() - 40 * 86_400_000));
    // The same trip, each waypoint stamped 40 days before its set (a device replaying a stored track):
    // the track reads its sets' points within their spans (server/telemetry/point-span.ts).
    const sets = simulatedTrip(start, { lat: 40.7128, lon: -74.006 }).map((set) => ({
      ...set,
      datum: set.datum.map((d) => (d.key === "GEN_WAYPOINT" ? { ...d, timestamp: earlier } : d)),
    }));
    const posted = await api("sandbox").post(`/vehicle/${a.vehicle.vehicleId}/dataSet/`, sets, a.accessToken);
    expect(posted.status, posted.text).toBe(200);
    const trips = await api("sandbox").get(`/vehicle/${a.vehicle.vehicleId}/trip/`, a.accessToken);
    const page = await a.browser.get(`/vehicles/${a.vehicle.vehicleId}/trips/${trips.body.trip[0].id}`);
    expect(page.status).toBe(200);
    const text = visibleText(page.text);
    expect(text).toMatch(/Distance 0\.9 mi/);
    expect(text).toContain("Duration 11 min 00 s");
  });
});
