// @module-tag embedded
import { describe, expect, it } from "vitest";
import { api, createDriver, testSql } from "@/test/helpers/api";
import { baseUrl, Browser } from "@/test/helpers/browser";
import { ConsolePartner } from "@/test/helpers/console-partner";
import { addVehicle, apps, uniqueDevice } from "@/test/helpers/fixtures";
import { browserHeaders, openSse, type SseEvent } from "@/test/helpers/sse-reader";
import { dataSet, waypoint } from "@/test/helpers/telemetry";

// The live map's streams over real HTTP (docs/driver-site.md#live-map): the driver's
// /me/positions/stream and the console's watched-run stream. A data set posted to the API reaches
// an open stream by NOTIFY (the vehicles' trigger), without any poll; so does a write from another
// database session (this test process's own connection), which on the embedded database travels
// through its wire server to the service's listener. Each stream carries its own account only,
// and ends when its session signs out.

const sandbox = api("sandbox");
const PASSWORD = "correct-horse-1";

async function signedInDriver(label: string) {
  const driver = await createDriver("sandbox", apps().main.sandbox);
  const vehicle = await addVehicle("sandbox", driver.accessToken, { label, deviceId: uniqueDevice() });
  const browser = new Browser();
  expect((await browser.signIn("sandbox", driver.account.username, PASSWORD)).problem).toBeNull();
  return { token: driver.accessToken, vehicleId: vehicle.vehicleId as number, browser };
}

let clock = Date.now() - 3_600_000;
/** A data set at a time of its own (a wire DateTime has whole seconds; a repeated one is a duplicate). */
const postPosition = async (token: string, vehicleId: number, lat: number, lon: number) => {
  clock += 60_000;
  const body = dataSet(new Date(clock), "RUNNING", [waypoint(lat, lon)]);
  const posted = await sandbox.post(`/vehicle/${vehicleId}/dataSet/`, body, token);
  expect(posted.status, posted.text).toBe(200);
};

const at =
  (vehicleId: number, lat: number) =>
  (e: SseEvent): boolean =>
    e.event === "positions" &&
    e.data.vehicles.some(
      (v: any) => v.vehicleId === vehicleId && Math.abs((v.lastWaypoint?.latitude ?? 0) - lat) < 1e-6,
    );

describe("GET /me/positions/stream", () => {
  it("without a session → 401 UNAUTHORIZED in the API's error shape, never a stream", async () => {
    const res = await openSse(`${baseUrl()}/me/positions/stream`, { "X-Forwarded-For": new Browser().address });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.refusal).error).toMatchObject({ httpStatus: 401, errorCode: "UNAUTHORIZED" });
  });

  it("sends the driver's vehicles at once, then a position posted to the API without a poll; another driver's never", async () => {
    const a = await signedInDriver("Stream car A");
    const b = await signedInDriver("Stream car B");
    const stream = await openSse(`${baseUrl()}/me/positions/stream`, browserHeaders(a.browser));
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
      const first = await stream.next("the first snapshot", (e) => e.event === "positions");
      expect(first.data.vehicles.map((v: any) => v.vehicleId)).toEqual([a.vehicleId]);

      // B moves first: A's stream must not carry it (B's NOTIFY names B's account only).
      await postPosition(b.token, b.vehicleId, 39.9701, -83.0011);
      await postPosition(a.token, a.vehicleId, 39.9612, -82.9988);
      await stream.next("A's new position", at(a.vehicleId, 39.9612));
      await postPosition(a.token, a.vehicleId, 39.9655, -82.9955);
      await stream.next("A's next position", at(a.vehicleId, 39.9655));
      for (const e of stream.events)
        expect(
          e.data.vehicles.map((v: any) => v.vehicleId),
          JSON.stringify(e.data),
        ).toEqual([a.vehicleId]);
    } finally {
      stream.close();
    }
  });

  it("a write by another database session (not the service's) reaches the stream: the NOTIFY, not the service's own request, wakes it", async () => {
    const a = await signedInDriver("Other session car");
    const stream = await openSse(`${baseUrl()}/me/positions/stream`, browserHeaders(a.browser));
    try {
      await stream.next("the first snapshot", (e) => e.event === "positions");
      await testSql()`update vehicles set last_latitude = 38.9, last_longitude = -77.03, last_waypoint_at = now()
        where id = ${a.vehicleId}`;
      await stream.next("the position written elsewhere", at(a.vehicleId, 38.9));
    } finally {
      stream.close();
    }
  });

  it("signing out ends the session's open stream", async () => {
    const a = await signedInDriver("Sign-out car");
    const stream = await openSse(`${baseUrl()}/me/positions/stream`, browserHeaders(a.browser));
    await stream.next("the first snapshot", (e) => e.event === "positions");
    const out = await a.browser.post("/api/auth/signout", { csrfToken: await a.browser.csrfToken(), json: "true" });
    expect(out.status).toBeLessThan(400);
    await stream.ended();
    // The cookie is gone from the browser: a reconnect is refused.
    const again = await openSse(`${baseUrl()}/me/positions/stream`, browserHeaders(a.browser));
    expect(again.status).toBe(401);
  });
});

describe("GET /console/apps/{appId}/simulator/runs/{runId}/stream", () => {
  it("no partner session → 401 { error }; another partner's run → 404; the partner's own run moves on the stream", async () => {
    const partner = await new ConsolePartner().signUp();
    const { appId, vehicleId } = await partner.appWithVehicle();
    const started = await partner.ok("start-simulation", {
      appId,
      vehicleId: String(vehicleId),
      way: "template",
      templateId: "columbus-downtown-loop",
      mode: "realtime",
      speedUp: "10",
      collectionPeriod: "10",
    });
    const runId = Number(started.reveal!.runId);
    const path = `/console/apps/${appId}/simulator/runs/${runId}/stream`;

    const anonymous = await openSse(baseUrl() + path, { "X-Forwarded-For": new Browser().address });
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.refusal)).toEqual({ error: expect.any(String) });

    const other = await new ConsolePartner().signUp();
    const foreign = await openSse(baseUrl() + path, browserHeaders(other));
    expect(foreign.status).toBe(404);

    const stream = await openSse(baseUrl() + path, browserHeaders(partner));
    try {
      const first = await stream.next("the run", (e) => e.event === "run");
      expect(first.data.simulation).toMatchObject({ id: runId, status: "running" });
      expect(first.data.geometry.length).toBeGreaterThan(10);
      const placed = await stream.next("a position", (e) => e.event === "run" && e.data.position !== null);
      await stream.next(
        "the vehicle moved",
        (e) =>
          e.event === "run" &&
          e.data.position !== null &&
          (e.data.position.latitude !== placed.data.position.latitude ||
            e.data.position.longitude !== placed.data.position.longitude),
        30_000,
      );
    } finally {
      stream.close();
      await partner.ok("stop-simulation", { appId, vehicleId: String(vehicleId), runId: String(runId) });
    }
  });
});
