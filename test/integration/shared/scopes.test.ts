import { describe, expect, it } from "vitest";
import { api, clientToken, request, tokenRequest, type Credentials } from "@/test/helpers/api";
import { authorizeUrl, baseUrl, Browser, hiddenFields, redirectParams, visibleText } from "@/test/helpers/browser";
import { expectApiError } from "@/test/helpers/fixtures";
import { codeRequest, exchangeCode, newDriver, webApp } from "@/test/helpers/oauth-flow";
import { dataSet, waypoint } from "@/test/helpers/telemetry";

// OAuth scopes and the location precision a driver grants (docs/oauth.md#scopes), over real HTTP:
// the consent page's choice, the token answer, rounding and hiding in answers and feed events, the
// 403s, and the driver lowering the precision later on "Connected apps".

const LAT = 39.961178;
const LON = -82.998794;

/** Consent with `scope`, choosing `location` (or the page's default); the token answer. */
async function grant(browser: Browser, creds: Credentials, scope: string | null, location?: string) {
  const step = await browser.authorize(authorizeUrl(codeRequest(creds, scope === null ? {} : { scope })));
  if (step.kind !== "consent") throw new Error(`expected the consent form, got ${step.kind}`);
  const answer = await browser.decide(step, "allow", location ? { location } : {});
  expect(answer.status).toBe(303);
  const code = redirectParams(answer.location!).code!;
  const token = await exchangeCode(creds, code);
  expect(token.status).toBe(200);
  return { page: step.page.text, token: token.body as { access_token: string; scope?: string } };
}

/** A vehicle of the driver's with one position posted, through the app's token. */
async function vehicleWithPosition(token: string) {
  const created = await api("sandbox").post("/vehicle/", { label: "Scoped car" }, token);
  expect(created.status).toBe(200);
  const id = created.body.vehicle.vehicleId as number;
  const posted = await api("sandbox").post(
    `/vehicle/${id}/dataSet/`,
    dataSet(new Date(Date.now() - 60_000), "ON", [waypoint(LAT, LON), { key: "GEN_SPEED", value: "17" }]),
    token,
  );
  expect(posted.status).toBe(200);
  return id;
}

const radios = (html: string) =>
  [...html.matchAll(/<input[^>]*name="location"[^>]*>/g)].map((m) => /value="(\w+)"/.exec(m[0])?.[1]);

/** The hidden fields of the connected-apps page's location form. */
function precisionForm(html: string) {
  const start = html.indexOf('action="/connected-apps/precision"');
  return hiddenFields(html.slice(start, html.indexOf("</form>", start)));
}

describe("scopes on the authorization page and the token answer", () => {
  it("the metadata advertises the five scopes", async () => {
    const meta = await request("GET", `${baseUrl()}/.well-known/oauth-authorization-server/sandbox`);
    expect(meta.body.scopes_supported).toEqual([
      "location:precise",
      "location:approximate",
      "location:none",
      "data",
      "account",
    ]);
  });

  it("no scope: the page offers every precision, precise first, and the token says everything was granted", async () => {
    const { browser } = await newDriver();
    const { page, token } = await grant(browser, webApp(), null);
    expect(radios(page)).toEqual(["precise", "approximate", "none"]);
    // Everything, as a request without scope means: the answer is as it always was, without scope.
    expect(token.scope).toBeUndefined();
    const id = await vehicleWithPosition(token.access_token);
    const vehicle = await api("sandbox").get(`/vehicle/${id}`, token.access_token);
    expect(vehicle.body.vehicle.lastWaypoint).toMatchObject({ latitude: LAT, longitude: LON });
    expect(vehicle.body.vehicle.locationPaused).toBe(false);
  });

  it("location:approximate data: the page offers approximate or none, never precise; a posted precise is refused", async () => {
    const { browser } = await newDriver();
    const step = await browser.authorize(authorizeUrl(codeRequest(webApp(), { scope: "location:approximate data" })));
    expect(step.kind).toBe("consent");
    if (step.kind !== "consent") return;
    expect(radios(step.page.text)).toEqual(["approximate", "none"]);
    expect(visibleText(step.page.text)).toContain("see and manage your vehicles, with their positions to about 1 km");
    const refused = await browser.decide(step, "allow", { location: "precise" });
    expect(refused.status).toBe(400);
    expect(refused.location).toBeNull();
  });

  it("two location scopes → invalid_scope back to the app", async () => {
    const { browser } = await newDriver();
    const step = await browser.authorize(
      authorizeUrl(codeRequest(webApp(), { scope: "location:precise location:none" })),
    );
    expect(step.kind).toBe("redirect");
    if (step.kind === "redirect") expect(redirectParams(step.location).error).toBe("invalid_scope");
  });

  it("approximate: answers and feed events carry coordinates rounded to 2 decimals, trips no path", async () => {
    const { browser } = await newDriver();
    const { token } = await grant(browser, webApp(), "location:approximate data account");
    expect(token.scope).toBe("location:approximate data account");
    const t = token.access_token;
    const created = await api("sandbox").post("/vehicle/", { label: "Approx car" }, t);
    const id = created.body.vehicle.vehicleId as number;
    const sub = await api("sandbox").post(`/vehicle/${id}/eventSubscription/WAYPOINT/`, {}, t);
    expect(sub.status).toBe(200);
    const start = new Date(Date.now() - 10 * 60_000);
    for (const [i, status] of (["ON", "RUNNING", "OFF"] as const).entries()) {
      const at = new Date(start.getTime() + i * 60_000);
      const body = dataSet(at, status, [
        waypoint(LAT + i / 1000, LON),
        ...(status === "OFF" ? [{ key: "GEN_TRIP_MILEAGE", value: "1.2" }] : []),
      ]);
      expect((await api("sandbox").post(`/vehicle/${id}/dataSet/`, body, t)).status).toBe(200);
    }

    const vehicle = (await api("sandbox").get(`/vehicle/${id}`, t)).body.vehicle;
    expect(vehicle.lastWaypoint).toMatchObject({ latitude: 39.96, longitude: -83 });
    const points = (await api("sandbox").get(`/vehicle/${id}/data/?key=GEN_WAYPOINT`, t)).body.data;
    expect(points.map((p: { value: string }) => p.value)).toEqual(["39.96,-83", "39.96,-83", "39.96,-83"]);
    const [trip] = (await api("sandbox").get(`/vehicle/${id}/trip/?includeData=true`, t)).body.trip;
    expect(trip.startWaypoint).toMatchObject({ latitude: 39.96, longitude: -83 });
    expect(trip.mileage).toBe(1.2);
    expect(trip.data.flatMap((s: { datum: { key: string }[] }) => s.datum.map((d) => d.key))).not.toContain(
      "GEN_WAYPOINT",
    );
    // The feed hands out an event once every older transaction on the server has ended: another
    // file's write still running can hold it back for a moment (server/notifications/feed.ts).
    let feed: { recordedWaypoint: unknown }[] = [];
    await expect
      .poll(async () => (feed = (await api("sandbox").get(`/eventFeed/?vehicleId=${id}`, t)).body.events).length, {
        timeout: 15_000,
      })
      .toBe(3);
    for (const e of feed) expect(e.recordedWaypoint).toMatchObject({ latitude: 39.96, longitude: -83 });
    const notes = (await api("sandbox").get(`/vehicle/${id}/eventNotification/`, t)).body.notifications;
    for (const n of notes) expect(n.recordedWaypoint).toMatchObject({ latitude: 39.96, longitude: -83 });
    // GEOFENCE needs precise location.
    const geofence = await api("sandbox").post(
      `/vehicle/${id}/eventSubscription/GEOFENCE/`,
      {
        origin: { latitude: LAT, longitude: LON },
        radius: 1,
        boundaryCondition: "INSIDE",
        notificationPeriod: "STATECHANGE",
      },
      t,
    );
    expectApiError(geofence, 403, "FORBIDDEN");
    expect(geofence.body.error.detail).toContain("location:precise");
  });

  it("none and no data: no coordinates at all, vehicle data and data subscriptions 403 naming the scope", async () => {
    const { browser } = await newDriver();
    const { token } = await grant(browser, webApp(), "account");
    expect(token.scope).toBe("location:none account");
    const t = token.access_token;
    const id = await vehicleWithPosition(t);
    const vehicle = (await api("sandbox").get(`/vehicle/${id}`, t)).body.vehicle;
    expect(vehicle.lastWaypoint).toBeNull();
    const data = await api("sandbox").get(`/vehicle/${id}/data/`, t);
    expectApiError(data, 403, "FORBIDDEN");
    expect(data.body.error.detail).toContain('"data"');
    expectApiError(await api("sandbox").get(`/vehicle/${id}/trip/`, t), 403, "FORBIDDEN");
    const waypointSub = await api("sandbox").post(`/vehicle/${id}/eventSubscription/WAYPOINT/`, {}, t);
    expectApiError(waypointSub, 403, "FORBIDDEN");
    expect(waypointSub.body.error.detail).toContain("location:approximate");
    expectApiError(
      await api("sandbox").post(
        `/vehicle/${id}/eventSubscription/IGNITIONSTATUS/`,
        { notificationPeriod: "STATECHANGE" },
        t,
      ),
      403,
      "FORBIDDEN",
    );
    expect((await api("sandbox").get("/account/", t)).status).toBe(200);
  });

  it("without account: account fields 403 naming the scope", async () => {
    const { browser } = await newDriver();
    const { token } = await grant(browser, webApp(), "location:precise data");
    const accounts = await api("sandbox").get("/account/", token.access_token);
    expectApiError(accounts, 403, "FORBIDDEN");
    expect(accounts.body.error.detail).toContain('"account"');
  });

  it("the driver lowers the precision on Connected apps: the same token then sees rounded positions, and none hides them", async () => {
    const { browser } = await newDriver();
    const { token } = await grant(browser, webApp(), null);
    const t = token.access_token;
    const id = await vehicleWithPosition(t);
    const page = await browser.get("/connected-apps");
    const form = precisionForm(page.text);
    expect(form.csrf_token).toBeTruthy();
    const lowered = await browser.post("/connected-apps/precision", { ...form, location: "approximate" });
    expect(lowered.status).toBe(303);
    expect((await api("sandbox").get(`/vehicle/${id}`, t)).body.vehicle.lastWaypoint).toMatchObject({
      latitude: 39.96,
      longitude: -83,
    });
    expect(visibleText((await browser.get(lowered.location!)).text)).toContain(
      "now sees your vehicles' location: Approximate",
    );
    await browser.post("/connected-apps/precision", { ...form, location: "none" });
    expect((await api("sandbox").get(`/vehicle/${id}`, t)).body.vehicle.lastWaypoint).toBeNull();
    // An app-level token has no scope.
    const again = await tokenRequest({ grant_type: "client_credentials" }, { basic: webApp() });
    expect(again.body.scope).toBeUndefined();
  });

  it("a precision above what the app asked for cannot be chosen later either", async () => {
    const { browser } = await newDriver();
    await grant(browser, webApp(), "location:approximate data");
    const page = await browser.get("/connected-apps");
    const form = precisionForm(page.text);
    const raised = await browser.post("/connected-apps/precision", { ...form, location: "precise" });
    expect(raised.status).toBe(403);
  });
});

describe("a client-credentials token across accounts", () => {
  /** A vehicle of the driver's with a WAYPOINT subscription and a finished trip of three positions. */
  async function vehicleWithTrip(token: string) {
    const created = await api("sandbox").post("/vehicle/", { label: "Fleet car" }, token);
    expect(created.status).toBe(200);
    const id = created.body.vehicle.vehicleId as number;
    expect((await api("sandbox").post(`/vehicle/${id}/eventSubscription/WAYPOINT/`, {}, token)).status).toBe(200);
    const start = Date.now() - 10 * 60_000;
    for (const [i, status] of (["ON", "RUNNING", "OFF"] as const).entries()) {
      const body = dataSet(new Date(start + i * 60_000), status, [
        waypoint(LAT + i / 1000, LON),
        ...(status === "OFF" ? [{ key: "GEN_TRIP_MILEAGE", value: "1.2" }] : []),
      ]);
      expect((await api("sandbox").post(`/vehicle/${id}/dataSet/`, body, token)).status).toBe(200);
    }
    return id;
  }

  it("one token of the app reads each account's vehicles, data points, trips and feed events at that account's precision", async () => {
    const approximate = await newDriver();
    const precise = await newDriver();
    const a = await grant(approximate.browser, webApp(), "location:approximate data account");
    const p = await grant(precise.browser, webApp(), "location:precise data account");
    const [approxCar, preciseCar] = await Promise.all([
      vehicleWithTrip(a.token.access_token),
      vehicleWithTrip(p.token.access_token),
    ]);
    const t = await clientToken(webApp());
    const sent = [0, 1, 2].map((i) => `${Number((LAT + i / 1000).toFixed(6))},${LON}`);

    // Vehicles: the last position of each.
    expect((await api("sandbox").get(`/vehicle/${approxCar}`, t)).body.vehicle.lastWaypoint).toMatchObject({
      latitude: 39.96,
      longitude: -83,
    });
    expect((await api("sandbox").get(`/vehicle/${preciseCar}`, t)).body.vehicle.lastWaypoint).toMatchObject({
      latitude: Number((LAT + 0.002).toFixed(6)),
      longitude: LON,
    });

    // Data points: GEN_WAYPOINT values rounded for one account, as sent for the other.
    const waypointValues = async (id: number) =>
      (await api("sandbox").get(`/vehicle/${id}/data/?key=GEN_WAYPOINT`, t)).body.data
        .map((d: { value: string }) => d.value)
        .sort();
    expect(await waypointValues(approxCar)).toEqual(["39.96,-83", "39.96,-83", "39.96,-83"]);
    expect(await waypointValues(preciseCar)).toEqual([...sent].sort());

    // Trips: rounded ends and no path for one; the exact ends and the path for the other.
    const trip = async (id: number) => {
      const res = await api("sandbox").get(`/vehicle/${id}/trip/?includeData=true`, t);
      expect(res.status, res.text).toBe(200);
      expect(res.body.trip).toHaveLength(1);
      const [one] = res.body.trip;
      const keys = one.data.flatMap((s: { datum: { key: string }[] }) => s.datum.map((d) => d.key));
      return { start: one.startWaypoint, end: one.endWaypoint, mileage: one.mileage, keys };
    };
    const approxTrip = await trip(approxCar);
    expect(approxTrip.start).toMatchObject({ latitude: 39.96, longitude: -83 });
    expect(approxTrip.end).toMatchObject({ latitude: 39.96, longitude: -83 });
    expect(approxTrip.mileage).toBe(1.2);
    expect(approxTrip.keys).not.toContain("GEN_WAYPOINT");
    const preciseTrip = await trip(preciseCar);
    expect(preciseTrip.start).toMatchObject({ latitude: LAT, longitude: LON });
    expect(preciseTrip.end).toMatchObject({ latitude: Number((LAT + 0.002).toFixed(6)), longitude: LON });
    expect(preciseTrip.keys).toContain("GEN_WAYPOINT");

    // Feed events and notification reads: each account's WAYPOINT events at its own precision.
    const recorded = async (path: string, field: "events" | "notifications") =>
      ((await api("sandbox").get(path, t)).body[field] as { recordedWaypoint: { latitude: number } }[])
        .map((e) => e.recordedWaypoint.latitude)
        .sort();
    // The feed's events once every older transaction on the server has ended (as above).
    await expect
      .poll(() => recorded(`/eventFeed/?vehicleId=${approxCar}`, "events"), { timeout: 15_000 })
      .toEqual([39.96, 39.96, 39.96]);
    await expect
      .poll(() => recorded(`/eventFeed/?vehicleId=${preciseCar}`, "events"), { timeout: 15_000 })
      .toEqual(sent.map((s) => Number(s.split(",")[0])).sort());
    expect(await recorded(`/vehicle/${approxCar}/eventNotification/`, "notifications")).toEqual([39.96, 39.96, 39.96]);
    expect(await recorded(`/vehicle/${preciseCar}/eventNotification/`, "notifications")).toEqual(
      sent.map((s) => Number(s.split(",")[0])).sort(),
    );
  });
});
