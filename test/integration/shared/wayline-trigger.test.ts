import { clientCredentials, createWayline, type WaylineClient } from "@wayline/sdk";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { trigger } from "@/sdk/src/cli/trigger";
import { api, createDriver, uniqueName } from "@/test/helpers/api";
import { createPartnerApp } from "@/test/helpers/fixtures";
import { authorizeCode, codeRequest, exchangeCode, newDriver } from "@/test/helpers/oauth-flow";
import { dataSet, waypoint, wireTime } from "@/test/helpers/telemetry";
import type { TestApp } from "@/test/integration/global-setup";

// What `wayline trigger` posts (sdk/src/cli/trigger.ts, docs/sdk.md#wayline-trigger), run in this process
// through the SDK's client against the suite's service, as the command runs it but without a child
// process: the event it names is made whatever data the vehicle already has. A wire DateTime has whole
// seconds, and a data set at a second the vehicle already has is a duplicate, answered as stored and
// evaluated by nothing (telemetry.test.ts); one older than the vehicle's newest is late, and no
// STATECHANGE subscription sees it. (wayline-listen.test.ts runs the command itself.)

let app: TestApp;
let client: WaylineClient;

beforeAll(async () => {
  app = await createPartnerApp(uniqueName("trigger-app"));
  client = createWayline({
    url: inject("baseUrl"),
    environment: "sandbox",
    token: clientCredentials({
      url: inject("baseUrl"),
      environment: "sandbox",
      clientId: app.sandbox.clientId,
      clientSecret: app.sandbox.clientSecret,
    }),
  });
}, 60_000);

/** A driver of the app with a vehicle of their own; the app's client token. */
async function vehicleOfTheApp() {
  const driver = await createDriver("sandbox", app.sandbox);
  const created = await api("sandbox").post("/vehicle/", { label: "Trigger car" }, driver.accessToken);
  expect(created.status, created.text).toBe(200);
  return { vehicleId: String(created.body.vehicle.vehicleId), token: driver.clientToken };
}

/** The types of the app's notifications for the vehicle, oldest first. */
async function eventTypes(vehicleId: string, token: string): Promise<string[]> {
  const reply = await api("sandbox").get(`/vehicle/${vehicleId}/eventNotification/?searchLimit=500`, token);
  expect(reply.status, reply.text).toBe(200);
  return (reply.body.notifications as { _type: string }[]).map((n) => n._type).reverse();
}

async function dataSetTimes(vehicleId: string, token: string): Promise<string[]> {
  const reply = await api("sandbox").get(`/vehicle/${vehicleId}/dataSet/?searchLimit=500&sortOrder=asc`, token);
  expect(reply.status, reply.text).toBe(200);
  return (reply.body.dataSet as { timestamp: string }[]).map((s) => s.timestamp);
}

const quiet = () => {};

describe("wayline trigger", () => {
  it("two triggers on one vehicle within one second: each makes its event (the second's data sets are new, not the first's again)", async () => {
    const { vehicleId, token } = await vehicleOfTheApp();
    // From the start of a second, so that both run within it, as two commands in quick succession do.
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000)));
    await trigger(client, "TROUBLECODE", vehicleId, quiet);
    await trigger(client, "VEHICLEHARSHACCEL", vehicleId, quiet);

    const times = await dataSetTimes(vehicleId, token);
    expect(times, "four data sets, each at a second of its own").toHaveLength(4);
    expect(new Set(times).size).toBe(4);
    const types = await eventTypes(vehicleId, token);
    expect(types.filter((t) => t === "TROUBLECODE")).toHaveLength(1);
    expect(types.filter((t) => t === "VEHICLEHARSHACCEL")).toHaveLength(1);
  });

  it("a vehicle with data sets up to a few seconds ahead of the clock (a device's clock running fast): the trigger's data sets go after them, and the event is made", async () => {
    const { vehicleId, token } = await vehicleOfTheApp();
    const second = Math.floor(Date.now() / 1000) * 1000;
    const ahead = [-1, 0, 1, 2, 3, 4].map((s) =>
      dataSet(new Date(second + s * 1000), "RUNNING", [waypoint(39.9612, -82.9988)]),
    );
    const posted = await api("sandbox").post(`/vehicle/${vehicleId}/dataSet/`, ahead, token);
    expect(posted.status, posted.text).toBe(200);

    await trigger(client, "VEHICLEHARSHDECEL", vehicleId, quiet);

    const times = await dataSetTimes(vehicleId, token);
    expect(times.slice(0, 6)).toEqual(ahead.map((s) => s.timestamp));
    expect(times.slice(6), "two more, after the newest").toHaveLength(2);
    for (const t of times.slice(6)) expect(t > wireTime(new Date(second + 4000))).toBe(true);
    expect(await eventTypes(vehicleId, token)).toContain("VEHICLEHARSHDECEL");
  });

  it("a STATECHANGE subscription on a vehicle whose newest data set is ahead of the clock sees the trigger's change (its data sets are not late)", async () => {
    const { vehicleId, token } = await vehicleOfTheApp();
    const posted = await api("sandbox").post(
      `/vehicle/${vehicleId}/dataSet/`,
      dataSet(new Date(Date.now() + 3000), "OFF", [waypoint(39.9612, -82.9988)]),
      token,
    );
    expect(posted.status, posted.text).toBe(200);

    // IGNITIONSTATUS: a STATECHANGE subscription; the data sets go OFF, then ON.
    await trigger(client, "IGNITIONSTATUS", vehicleId, quiet);

    expect(await eventTypes(vehicleId, token)).toEqual(["IGNITIONSTATUS"]);
  });

  it("a vehicle's polygon GEOFENCE, concave and over the antimeridian: the trigger drives from outside into it", async () => {
    const { vehicleId, token } = await vehicleOfTheApp();
    // A U whose middle (where the corners' average lies) is its notch, outside the fence.
    const polygon = [
      [-17, 179.8],
      [-17, -179.8],
      [-16, -179.8],
      [-16, -179.9],
      [-16.8, -179.9],
      [-16.8, 179.9],
      [-16, 179.9],
      [-16, 179.8],
    ].map(([latitude, longitude]) => ({ latitude, longitude }));
    const made = await api("sandbox").post(
      `/vehicle/${vehicleId}/eventSubscription/GEOFENCE/`,
      { notificationPeriod: "STATECHANGE", boundaryCondition: "INSIDE", polygon },
      token,
    );
    expect(made.status, made.text).toBe(200);

    await trigger(client, "GEOFENCE", vehicleId, quiet);

    const reply = await api("sandbox").get(`/vehicle/${vehicleId}/eventNotification/GEOFENCE/`, token);
    expect(reply.status, reply.text).toBe(200);
    expect(
      reply.body.notifications.map((n: { recordedBoundaryCondition: string }) => n.recordedBoundaryCondition),
    ).toEqual(["INSIDE"]);
  });

  it("an app whose grant has location but not data (it may not read the vehicle's data sets): WAYPOINT is still triggered, twice within one second", async () => {
    const { browser } = await newDriver();
    const { code } = await authorizeCode(browser, codeRequest(app.sandbox, { scope: "location:precise" }));
    const exchanged = await exchangeCode(app.sandbox, code);
    expect(exchanged.status, exchanged.text).toBe(200);
    const userToken = exchanged.body.access_token as string;
    const created = await api("sandbox").post("/vehicle/", { label: "Location only" }, userToken);
    expect(created.status, created.text).toBe(200);
    const vehicleId = String(created.body.vehicle.vehicleId);
    expect((await api("sandbox").get(`/vehicle/${vehicleId}/dataSet/`, userToken)).status).toBe(403);

    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000)));
    await trigger(client, "WAYPOINT", vehicleId, quiet);
    await trigger(client, "WAYPOINT", vehicleId, quiet);

    expect(await eventTypes(vehicleId, userToken)).toEqual(["WAYPOINT", "WAYPOINT"]);
  });
});
