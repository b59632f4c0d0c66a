import { beforeAll, describe, expect, it } from "vitest";
import { api } from "@/test/helpers/api";
import { baseUrl, visibleText } from "@/test/helpers/browser";
import { ConsolePartner } from "@/test/helpers/console-partner";
import { choosePrecision, driverGranting, PRECISIONS, type Precision } from "@/test/helpers/grants";
import { browserHeaders, openSse } from "@/test/helpers/sse-reader";
import { dataSet, waypoint } from "@/test/helpers/telemetry";

// The partner console acts as its app (docs/console.md): every position it shows of an account,
// on every page and stream, is at the precision that account's driver granted the app, as the
// app's own API token would see it (docs/oauth.md#scopes). One app, three drivers: each granted
// precise, made a vehicle with a WAYPOINT subscription, a simulator run and a last position of its
// own, then chose the precision under test on "Connected apps". Every page lists all three
// accounts, so each is told apart by its own digits.

const sandbox = api("sandbox");
const AT: Record<Precision, { latitude: number; longitude: number; rounded: string }> = {
  precise: { latitude: 39.987654, longitude: -83.012345, rounded: "39.99, -83.01" },
  approximate: { latitude: 39.976543, longitude: -83.023456, rounded: "39.98, -83.02" },
  none: { latitude: 39.965432, longitude: -83.034567, rounded: "39.97, -83.03" },
};
const digitsOf = (p: Precision) => [String(AT[p].latitude), String(AT[p].longitude)];

type Position = { latitude: number; longitude: number } | null;
type Watched = { simulation: { id: number; status: string }; position: Position; geometry: Position[] };

let partner: ConsolePartner;
let appId: number;
const accounts = new Map<Precision, { vehicleId: number; runId: number; notificationId: number }>();

const decimals = (n: number) => (String(n).split(".")[1] ?? "").length;

beforeAll(async () => {
  partner = await new ConsolePartner().signUp();
  const app = await partner.createApp();
  appId = app.appId;
  for (const precision of PRECISIONS) {
    const driver = await driverGranting(app, "location:precise data account");
    const created = await sandbox.post("/vehicle/", { label: `Console ${precision}` }, driver.token);
    expect(created.status, created.text).toBe(200);
    const vehicleId = created.body.vehicle.vehicleId as number;
    expect((await sandbox.post(`/vehicle/${vehicleId}/eventSubscription/WAYPOINT/`, {}, driver.token)).status).toBe(
      200,
    );
    // A run started in the console (instant: its trip ends now), then the last position after it.
    const run = await partner.ok("start-simulation", {
      appId: String(appId),
      vehicleId: String(vehicleId),
      way: "points",
      startLatitude: "39.9612",
      startLongitude: "-83.0007",
      endLatitude: "40.0301",
      endLongitude: "-83.0195",
      mode: "instant",
    });
    const posted = await sandbox.post(
      `/vehicle/${vehicleId}/dataSet/`,
      // Two seconds on: the run's last data set is at the second it started.
      dataSet(new Date(Date.now() + 2000), "OFF", [waypoint(AT[precision].latitude, AT[precision].longitude)]),
      driver.token,
    );
    expect(posted.status, posted.text).toBe(200);
    const notes = (await sandbox.get(`/vehicle/${vehicleId}/eventNotification/?searchLimit=500`, driver.token)).body
      .notifications as { id: number; recordedWaypoint: Position }[];
    const mine = notes.find((n) => n.recordedWaypoint?.latitude === AT[precision].latitude);
    expect(mine, "the WAYPOINT notification of the last position").toBeDefined();
    if (precision !== "precise") await choosePrecision(driver.browser, precision);
    accounts.set(precision, { vehicleId, runId: Number(run.reveal!.runId), notificationId: mine!.id });
  }
}, 120_000);

/** Every console page of the app, and the JSON routes the pages read. */
function consolePaths(a: { runId: number; notificationId: number }) {
  const app = `/console/apps/${appId}`;
  return [
    "/console/apps",
    app,
    `${app}/accounts?env=sandbox`,
    `${app}/access`,
    `${app}/health`,
    `${app}/inbox`,
    `${app}/inbox/requests`,
    `${app}/notifications?env=sandbox`,
    `${app}/notifications/${a.notificationId}`,
    `${app}/outbox`,
    `${app}/simulator`,
    `${app}/simulator/runs/${a.runId}`,
    `${app}/subscriptions`,
  ];
}

function expectAt(precision: Precision, watched: Watched) {
  const { latitude, longitude, rounded } = AT[precision];
  if (precision === "precise") {
    expect(watched.position).toEqual({ latitude, longitude });
    expect(watched.geometry.some((p) => decimals(p!.latitude) > 2 || decimals(p!.longitude) > 2)).toBe(true);
  } else if (precision === "approximate") {
    const [lat, lon] = rounded.split(", ").map(Number);
    expect(watched.position).toEqual({ latitude: lat, longitude: lon });
    expect(watched.geometry.length).toBeGreaterThan(1);
    for (const p of watched.geometry) expect(Math.max(decimals(p!.latitude), decimals(p!.longitude))).toBeLessThan(3);
  } else {
    expect(watched.position).toBeNull();
    expect(watched.geometry).toEqual([]);
  }
}

describe("the console shows each account's positions at the precision its driver granted the app", () => {
  for (const precision of PRECISIONS) {
    it(`location:${precision}: every page and JSON route`, async () => {
      const a = accounts.get(precision)!;
      for (const path of consolePaths(a)) {
        const page = await partner.get(path);
        expect(page.status, path).toBe(200);
        if (precision !== "precise")
          for (const digits of digitsOf(precision)) expect(page.text, `${path} shows ${digits}`).not.toContain(digits);
      }
      const list = visibleText((await partner.get(`/console/apps/${appId}/accounts?env=sandbox`)).text);
      const row = list.slice(list.indexOf(`Console ${precision}`), list.indexOf(`Console ${precision}`) + 200);
      const { latitude, longitude, rounded } = AT[precision];
      if (precision === "precise") expect(row).toContain(`${latitude}, ${longitude}`);
      if (precision === "approximate") expect(row).toContain(rounded);
      if (precision === "none") expect(row).toMatch(/—\s+Notifications/);

      const detail = (await partner.get(`/console/apps/${appId}/notifications/${a.notificationId}`)).text;
      if (precision === "precise") expect(detail).toContain(String(latitude));

      const simulator = (await partner.get(`/console/apps/${appId}/simulator`)).text;
      if (precision === "precise") expect(simulator).toContain(String(latitude));

      const polled = await partner.get(`/console/apps/${appId}/simulator/runs/${a.runId}`);
      const watched = JSON.parse(polled.text) as Watched;
      expect(watched.simulation).toMatchObject({ id: a.runId, status: "finished" });
      expectAt(precision, watched);
    });

    it(`location:${precision}: the run's stream`, async () => {
      const a = accounts.get(precision)!;
      const stream = await openSse(
        `${baseUrl()}/console/apps/${appId}/simulator/runs/${a.runId}/stream`,
        browserHeaders(partner),
      );
      try {
        expect(stream.status, stream.refusal).toBe(200);
        const first = await stream.next("the run", (e) => e.event === "run");
        expectAt(precision, first.data as Watched);
        await stream.ended();
        for (const e of stream.events) {
          const text = JSON.stringify(e.data);
          if (precision !== "precise") for (const digits of digitsOf(precision)) expect(text).not.toContain(digits);
        }
      } finally {
        stream.close();
      }
    });
  }
});
