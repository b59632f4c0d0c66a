import { describe, expect, it } from "vitest";
import { api, clientToken, uniqueName } from "@/test/helpers/api";
import { Browser, hiddenFields, visibleText } from "@/test/helpers/browser";

// The console's sandbox simulator over real HTTP: runs started by the console's action route go
// through the simulator service as the partner's app, so what they drive is read back through the
// public API with the app's own token; the page's poll route shows the run and the position; and
// no partner reaches another partner's simulator, runs or vehicles.

const sandbox = api("sandbox");
const DOWNTOWN = { latitude: "39.9612", longitude: "-83.0007" };
const CLINTONVILLE = { latitude: "40.0301", longitude: "-83.0195" };
const CLEVELAND = { latitude: "41.4993", longitude: "-81.6944" };

class Partner extends Browser {
  email = `${uniqueName("sim")}@partner.example`;
  csrf = "";

  async signUp() {
    const csrf = JSON.parse((await this.get("/api/partner-auth/csrf")).text).csrfToken as string;
    const res = await this.post("/api/partner-auth/callback/partner-registration", {
      name: "Sam Simulator",
      email: this.email,
      password: "partner-password-1",
      csrfToken: csrf,
      callbackUrl: "/console/apps",
      json: "true",
    });
    if (new URL(JSON.parse(res.text).url as string).searchParams.get("error"))
      throw new Error(`sign-up failed: ${res.text}`);
    this.csrf = hiddenFields((await this.get("/console/apps")).text).csrfToken ?? "";
    return this;
  }

  action(name: string, form: Record<string, string>, headers: Record<string, string> = {}) {
    return this.post(
      `/console/actions/${name}`,
      { csrfToken: this.csrf, ...form },
      { Accept: "application/json", ...headers },
    ).then((page) => ({ ...page, body: page.text ? JSON.parse(page.text) : null }));
  }

  async json(path: string) {
    const page = await this.get(path);
    return { ...page, body: page.status === 200 ? JSON.parse(page.text) : null };
  }
}

// A partner with an app and a sandbox test account with one vehicle, all made through the console.
async function partnerWithVehicle() {
  const partner = await new Partner().signUp();
  const made = await partner.action("create-app", {
    name: uniqueName("sim-app"),
    redirectUris: "https://partner.example/callback",
    clientType: "confidential",
  });
  expect(made.status, made.text).toBe(200);
  const app = {
    appId: Number(/\/console\/apps\/(\d+)/.exec(made.body.redirect)![1]),
    clientId: made.body.reveal.clientId as string,
    clientSecret: made.body.reveal.clientSecret as string,
  };
  const account = await partner.action("create-test-account", { appId: String(app.appId) });
  expect(account.status, account.text).toBe(200);
  const vehicle = await partner.action("create-test-vehicle", {
    appId: String(app.appId),
    accountId: String(account.body.reveal.accountId),
  });
  expect(vehicle.status, vehicle.text).toBe(200);
  return { partner, app, vehicleId: vehicle.body.reveal.vehicleId as number };
}

const pointsForm = (appId: number, vehicleId: number, extra: Record<string, string> = {}) => ({
  appId: String(appId),
  vehicleId: String(vehicleId),
  way: "points",
  startLatitude: DOWNTOWN.latitude,
  startLongitude: DOWNTOWN.longitude,
  endLatitude: CLINTONVILLE.latitude,
  endLongitude: CLINTONVILLE.longitude,
  ...extra,
});

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

describe("starting runs from the console", () => {
  it("start-simulation in backfill mode with clicked start and end → a finished run whose trip the app reads through the public API", async () => {
    const { partner, app, vehicleId } = await partnerWithVehicle();
    const page = await partner.get(`/console/apps/${app.appId}/simulator`);
    expect(page.status).toBe(200);
    const text = visibleText(page.text);
    expect(text).toContain("Sandbox simulator");
    expect(text).toContain("© OpenStreetMap contributors, ODbL 1.0");

    const started = await partner.action(
      "start-simulation",
      pointsForm(app.appId, vehicleId, {
        mode: "instant",
        collectionPeriod: "30",
        seed: "7",
        events: JSON.stringify([{ key: "GEN_DTC", at: "0.5" }]),
      }),
    );
    expect(started.status, started.text).toBe(200);
    expect(started.body.reveal).toMatchObject({ vehicleId, status: "finished" });
    const runId = started.body.reveal.runId as number;

    const token = await clientToken(app);
    const run = (await sandbox.get(`/vehicle/${vehicleId}/simulation/${runId}`, token)).body.simulation;
    expect(run).toMatchObject({
      status: "finished",
      mode: "instant",
      seed: 7,
      collectionPeriod: 30,
      progress: 1,
      network: "columbus_oh",
    });
    const trips = await sandbox.get(`/vehicle/${vehicleId}/trip/`, token);
    expect(trips.body.totalRecords).toBe(1);
    expect(trips.body.trip[0].id).toBe(run.tripId);
    expect(trips.body.trip[0].endWaypoint.latitude).toBeCloseTo(Number(CLINTONVILLE.latitude), 2);
    const dtc = await sandbox.get(`/vehicle/${vehicleId}/data/?key=GEN_DTC`, token);
    expect(dtc.body.data.map((d: { value: string }) => d.value)).toEqual(["P0420"]);

    // The page's poll route shows the same run, its route and where the vehicle is now.
    const polled = await partner.json(`/console/apps/${app.appId}/simulator/runs/${runId}`);
    expect(polled.status).toBe(200);
    expect(polled.body.simulation).toMatchObject({
      id: runId,
      status: "finished",
      attribution: expect.stringContaining("OpenStreetMap"),
    });
    expect(polled.body.position.latitude).toBeCloseTo(Number(CLINTONVILLE.latitude), 2);
    expect(polled.body.geometry.length).toBeGreaterThan(10);
    expect(visibleText((await partner.get(`/console/apps/${app.appId}/simulator`)).text)).toContain("finished");
  });

  it("a real-time run from a template: progress grows and the vehicle moves on the poll route, stop-simulation stops it and the trip closes", async () => {
    const { partner, app, vehicleId } = await partnerWithVehicle();
    const started = await partner.action("start-simulation", {
      appId: String(app.appId),
      vehicleId: String(vehicleId),
      way: "template",
      templateId: "columbus-downtown-loop",
      mode: "realtime",
      speedUp: "10",
      collectionPeriod: "10",
      lowBattery: "on",
    });
    expect(started.status, started.text).toBe(200);
    const runId = started.body.reveal.runId as number;
    expect(started.body.reveal.status).toBe("running");

    const poll = () => partner.json(`/console/apps/${app.appId}/simulator/runs/${runId}`).then((r) => r.body);
    const first = await until("a first position", poll, (b) => b.position !== null && b.simulation.dataSetCount >= 2);
    const later = await until(
      "progress",
      poll,
      (b) =>
        b.simulation.progress > first.simulation.progress && b.simulation.dataSetCount > first.simulation.dataSetCount,
    );
    expect(later.simulation.status).toBe("running");
    expect([later.position.latitude, later.position.longitude]).not.toEqual([
      first.position.latitude,
      first.position.longitude,
    ]);

    const again = await partner.action("start-simulation", pointsForm(app.appId, vehicleId, { mode: "instant" }));
    expect(again.status).toBe(409);
    expect(again.body.fieldErrors[0].fieldName).toBe("vehicleId");

    const stop = await partner.action("stop-simulation", {
      appId: String(app.appId),
      vehicleId: String(vehicleId),
      runId: String(runId),
    });
    expect(stop.status, stop.text).toBe(200);
    expect((await poll()).simulation.status).toBe("stopped");
    const token = await clientToken(app);
    const trip = await until(
      "the parked trip",
      async () => (await sandbox.get(`/vehicle/${vehicleId}/trip/`, token)).body.trip[0],
      (t) => t.endTime !== null,
    );
    expect(trip.mileage).toBeGreaterThan(0);
    // Low battery: every voltage reported is a weak battery's.
    const volts = (
      await sandbox.get(`/vehicle/${vehicleId}/data/?key=GEN_VOLTAGE&searchLimit=500`, token)
    ).body.data.map((d: { value: string }) => Number(d.value));
    expect(volts.length).toBeGreaterThan(1);
    expect(Math.max(...volts)).toBeLessThan(12);
  });

  it("a start point outside the covered areas is a field error on start; bad numbers and a missing template are field errors too", async () => {
    const { partner, app, vehicleId } = await partnerWithVehicle();
    const outside = await partner.action(
      "start-simulation",
      pointsForm(app.appId, vehicleId, {
        mode: "instant",
        startLatitude: CLEVELAND.latitude,
        startLongitude: CLEVELAND.longitude,
      }),
    );
    expect(outside.status).toBe(400);
    expect(outside.body.fieldErrors).toEqual([
      expect.objectContaining({ fieldName: "start", errorDisplay: expect.stringContaining("Columbus") }),
    ]);

    const numbers = await partner.action(
      "start-simulation",
      pointsForm(app.appId, vehicleId, {
        mode: "realtime",
        speedUp: "61",
        collectionPeriod: "0",
        seed: "-1",
        startLatitude: "abc",
      }),
    );
    expect(numbers.status).toBe(400);
    expect(numbers.body.fieldErrors.map((f: { fieldName: string }) => f.fieldName).sort()).toEqual([
      "collectionPeriod",
      "seed",
      "speedUp",
      "start",
    ]);

    const template = await partner.action("start-simulation", {
      appId: String(app.appId),
      vehicleId: String(vehicleId),
      way: "template",
      mode: "realtime",
    });
    expect(template.status).toBe(400);
    expect(template.body.fieldErrors[0].fieldName).toBe("templateId");
    const events = await partner.action(
      "start-simulation",
      pointsForm(app.appId, vehicleId, {
        mode: "instant",
        events: JSON.stringify([{ key: "VEHICLE_EVENT_HARSH_DECEL", at: "1.5" }]),
      }),
    );
    expect(events.status).toBe(400);
    expect(events.body.fieldErrors[0].fieldName).toBe("events");
    const noMode = await partner.action("start-simulation", pointsForm(app.appId, vehicleId));
    expect(noMode.status).toBe(400);
    expect(noMode.body.fieldErrors[0].fieldName).toBe("mode");

    const token = await clientToken(app);
    expect((await sandbox.get(`/vehicle/${vehicleId}/simulation/`, token)).body.totalRecords).toBe(0);
  });

  it("save-route stores the clicked start and end as a saved route of the app, which a run can then use", async () => {
    const { partner, app, vehicleId } = await partnerWithVehicle();
    const unnamed = await partner.action("save-route", {
      appId: String(app.appId),
      startLatitude: DOWNTOWN.latitude,
      startLongitude: DOWNTOWN.longitude,
      endLatitude: CLINTONVILLE.latitude,
      endLongitude: CLINTONVILLE.longitude,
    });
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.fieldErrors[0].fieldName).toBe("name");
    const saved = await partner.action("save-route", {
      appId: String(app.appId),
      name: "Downtown to Clintonville",
      startLatitude: DOWNTOWN.latitude,
      startLongitude: DOWNTOWN.longitude,
      endLatitude: CLINTONVILLE.latitude,
      endLongitude: CLINTONVILLE.longitude,
    });
    expect(saved.status, saved.text).toBe(200);
    const routeId = saved.body.reveal.routeId as number;
    const token = await clientToken(app);
    expect((await sandbox.get(`/simulation/route/${routeId}`, token)).body.route).toMatchObject({
      name: "Downtown to Clintonville",
      network: "columbus_oh",
    });
    // The page's saved-route choice (rendered on the client from the page's data) offers it.
    expect((await partner.get(`/console/apps/${app.appId}/simulator`)).text).toContain("Downtown to Clintonville");
    const run = await partner.action("start-simulation", {
      appId: String(app.appId),
      vehicleId: String(vehicleId),
      way: "route",
      routeId: String(routeId),
      mode: "instant",
    });
    expect(run.status, run.text).toBe(200);
    expect(run.body.reveal.status).toBe("finished");
  });

  it("the simulator is sandbox only: a start in production is refused with 403 and says so", async () => {
    const { partner, app, vehicleId } = await partnerWithVehicle();
    const confirmed = await partner.action("confirm-obligations", {
      appId: String(app.appId),
      credentials: "on",
      driverSite: "on",
      dataStatement: "on",
    });
    expect(confirmed.status).toBe(200);
    const res = await partner.action(
      "start-simulation",
      pointsForm(app.appId, vehicleId, { mode: "instant", environment: "production" }),
    );
    expect(res.status).toBe(403);
    expect(res.body.error).toContain("sandbox only");
  });
});

describe("the simulator is the partner's own", () => {
  it("partner B gets 404 on A's simulator page, run route and every simulator action, also with B's own app and A's vehicle", async () => {
    const a = await partnerWithVehicle();
    const started = await a.partner.action(
      "start-simulation",
      pointsForm(a.app.appId, a.vehicleId, { mode: "instant" }),
    );
    expect(started.status).toBe(200);
    const runId = String(started.body.reveal.runId);
    const b = await partnerWithVehicle();
    const appA = String(a.app.appId);
    const appB = String(b.app.appId);

    for (const path of [
      `/console/apps/${appA}/simulator`,
      `/console/apps/${appA}/simulator/runs/${runId}`,
      `/console/apps/${appB}/simulator/runs/${runId}`,
    ]) {
      const res = await b.partner.get(path);
      expect(res.status, path).toBe(404);
      expect(res.text).not.toContain(a.app.clientId);
    }
    const attempts: [string, Record<string, string>][] = [
      ["start-simulation", pointsForm(a.app.appId, a.vehicleId, { mode: "instant" })],
      ["start-simulation", pointsForm(b.app.appId, a.vehicleId, { mode: "instant" })],
      ["stop-simulation", { appId: appA, vehicleId: String(a.vehicleId), runId }],
      ["stop-simulation", { appId: appB, vehicleId: String(a.vehicleId), runId }],
      ["stop-simulation", { appId: appB, vehicleId: String(b.vehicleId), runId }],
      [
        "save-route",
        {
          appId: appA,
          name: "Mine now",
          startLatitude: DOWNTOWN.latitude,
          startLongitude: DOWNTOWN.longitude,
          endLatitude: CLINTONVILLE.latitude,
          endLongitude: CLINTONVILLE.longitude,
        },
      ],
    ];
    for (const [name, form] of attempts) {
      const res = await b.partner.action(name, form);
      expect(res.status, `${name} ${JSON.stringify(form)}`).toBe(404);
    }
    const token = await clientToken(a.app);
    expect((await sandbox.get(`/vehicle/${a.vehicleId}/simulation/`, token)).body.totalRecords).toBe(1);
    expect((await sandbox.get("/simulation/route/", token)).body.totalRecords).toBe(0);
    // Without a session the poll route says so, and never answers with data.
    expect((await new Browser().get(`/console/apps/${appA}/simulator/runs/${runId}`)).status).toBe(401);
    expect((await new Browser().get(`/console/apps/${appA}/simulator`)).status).toBe(307);
  });

  it("simulator actions without the session's CSRF token, or from another site, are refused and start nothing", async () => {
    const { partner, app, vehicleId } = await partnerWithVehicle();
    const other = await new Partner().signUp();
    const form = pointsForm(app.appId, vehicleId, { mode: "instant" });
    expect((await partner.post("/console/actions/start-simulation", form, { Accept: "application/json" })).status).toBe(
      403,
    );
    expect(
      (
        await partner.post(
          "/console/actions/start-simulation",
          { ...form, csrfToken: other.csrf },
          { Accept: "application/json" },
        )
      ).status,
    ).toBe(403);
    expect((await partner.action("start-simulation", form, { Origin: "https://evil.example" })).status).toBe(403);
    expect(
      (
        await new Browser().post(
          "/console/actions/start-simulation",
          { ...form, csrfToken: partner.csrf },
          { Accept: "application/json" },
        )
      ).status,
    ).toBe(401);
    const token = await clientToken(app);
    expect((await sandbox.get(`/vehicle/${vehicleId}/simulation/`, token)).body.totalRecords).toBe(0);
  });
});
