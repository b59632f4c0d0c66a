// @module-tag embedded
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { newAccountBody, request } from "@/test/helpers/api";
import { freePort, startApp, runScript, spawnApp, stopProcess, waitForHealth } from "@/test/helpers/processes";
import type { RunningApp } from "@/test/helpers/processes";
import { openSse } from "@/test/helpers/sse";
import { dataSet, waypoint } from "@/test/helpers/telemetry";

// GET /eventFeed/stream across a fleet (docs/event-feed.md#the-stream): two app processes on one
// database, A (started first: on the embedded database it owns the PGlite and its wire server) and
// B (a second `npm start` on the same database: PostgreSQL, or A's wire server). An event committed
// through one reaches a stream held by the other (NOTIFY wayline_events, one LISTEN per process);
// a stream on B survives B's kill -9 as a reconnect to A with its Last-Event-ID, losing and
// repeating nothing; an idle stream carries heartbeats (STREAM_HEARTBEAT_SECONDS, shortened here).
// The streams never read unwoken here (STREAM_SAFETY_READ_SECONDS a day), so every event that arrives
// was announced by a NOTIFY from the process that committed it.
// Both databases: on the embedded one the NOTIFY crosses its wire server to another process.

const SECRET = "event-stream-fleet-secret-0123456789abcdef";

let a: RunningApp;
let b: { child: ReturnType<typeof spawnApp>["child"]; output(): string; url: string } | null = null;

async function startB() {
  const port = await freePort();
  const started = spawnApp({ ...a.env, PORT: String(port) });
  const url = `http://127.0.0.1:${port}`;
  await waitForHealth(url, started.child, started.output);
  return { ...started, url };
}

describe("GET /eventFeed/stream across two processes", () => {
  let client: string;
  let car: { token: string; vehicleId: number };
  let lastSeen: string;

  beforeAll(async () => {
    a = await startApp({
      name: "stream-fleet",
      databaseUrl: inject("embedded") ? undefined : inject("databaseUrl"),
      // No read without a wake-up (STREAM_SAFETY_READ_SECONDS): what arrives, a NOTIFY brought.
      extraEnv: {
        NEXTAUTH_SECRET: SECRET,
        SIMULATOR: "0",
        STREAM_HEARTBEAT_SECONDS: "0.3",
        STREAM_SAFETY_READ_SECONDS: "86400",
      },
    });
    b = await startB();
    const app = JSON.parse(
      (
        await runScript(
          "app-create.ts",
          ["--name", "Stream fleet partner", "--redirect-uri", "https://partner.example/callback", "--json"],
          a.env,
        )
      ).stdout,
    );
    const basic = `Basic ${Buffer.from(`${app.sandbox.clientId}:${app.sandbox.clientSecret}`).toString("base64")}`;
    const oauth = async (form: Record<string, string>) => {
      const r = await request("POST", `${a.baseUrl}/sandbox/oauth/token`, {
        body: new URLSearchParams(form).toString(),
        headers: { Authorization: basic, "Content-Type": "application/x-www-form-urlencoded" },
      });
      expect(r.status, r.text).toBe(200);
      return r.body.access_token as string;
    };
    client = await oauth({ grant_type: "client_credentials" });
    const api = `${a.baseUrl}/sandbox/api`;
    const account = await request("POST", `${api}/account/`, { token: client, json: newAccountBody() });
    expect(account.status, account.text).toBe(200);
    const token = await oauth({ grant_type: "authorization_code", code: account.body.account.accessToken.code });
    const vehicle = await request("POST", `${api}/vehicle/`, { token, json: { label: "Fleet stream car" } });
    expect(vehicle.status, vehicle.text).toBe(200);
    const vehicleId = vehicle.body.vehicle.vehicleId as number;
    const sub = await request("POST", `${api}/vehicle/${vehicleId}/eventSubscription/WAYPOINT/`, {
      token,
      json: { notificationPeriod: "CONTINUOUS", postUrl: "https://hooks.partner.example/wayline" },
    });
    expect(sub.status, sub.text).toBe(200);
    car = { token, vehicleId };
  }, 300_000);

  afterAll(async () => {
    if (b) await stopProcess(b.child);
    await a?.stop();
  });

  let second = 0;
  const post = async (base: string, count = 1) => {
    const start = Date.now() - 3_600_000;
    const sets = Array.from({ length: count }, () =>
      dataSet(new Date(start + ++second * 1000), "RUNNING", [waypoint(39.96 + second / 1e5, -82.99)]),
    );
    const res = await request("POST", `${base}/sandbox/api/vehicle/${car.vehicleId}/dataSet/`, {
      token: car.token,
      json: sets,
    });
    expect(res.status, res.text).toBe(200);
    return (res.body.dataSet as { id: number }[]).map((s) => s.id);
  };
  const stream = (base: string, lastEventId?: string) =>
    openSse(`${base}/sandbox/api/eventFeed/stream?vehicleId=${car.vehicleId}`, { token: client, lastEventId });

  test("an event committed through one process reaches a stream held by the other, both ways; an idle stream carries heartbeats", async () => {
    const onB = await stream(b!.url);
    const onA = await stream(a.baseUrl);
    // The driver's own stream (a user token: woken for its account's events only).
    const driverOnB = await openSse(`${b!.url}/sandbox/api/eventFeed/stream`, { token: car.token });
    expect([onA.status, onB.status, driverOnB.status]).toEqual([200, 200, 200]);
    await Promise.all([onA.waitForComment("heartbeat"), onB.waitForComment("heartbeat")]);
    const viaA = await post(a.baseUrl, 2);
    const viaB = await post(b!.url, 1);
    for (const s of [onA, onB, driverOnB]) {
      const got = await s.waitForMessages(3);
      expect(got.map((m) => m.data.dataSetId)).toEqual([...viaA, ...viaB]);
      s.close();
    }
    lastSeen = onA.lastEventId()!;
  });

  test(
    "kill -9 of the process holding a stream, then a reconnect to the other with Last-Event-ID: every event once",
    { timeout: 120_000 },
    async () => {
      const startId = lastSeen;
      const first = await stream(b!.url, startId);
      expect(first.status).toBe(200);
      // A writer posts through A while B, holding the stream, is killed midway.
      const posted: number[] = [];
      let writing = true;
      const writer = (async () => {
        while (writing) posted.push(...(await post(a.baseUrl, 1 + (posted.length % 3))));
      })();
      await first.waitForMessages(5);
      b!.child.kill("SIGKILL");
      expect(await first.closed).toBe("error");
      const resumed = await stream(a.baseUrl, first.lastEventId() ?? startId);
      expect(resumed.status).toBe(200);
      await resumed.waitForMessages(3);
      writing = false;
      await writer;
      const got = () => [...first.messages, ...resumed.messages].map((m) => m.data);
      await resumed.waitForMessages(posted.length - first.messages.length, 60_000);
      resumed.close();
      const ids = got().map((e) => e.eventId);
      expect(new Set(ids).size).toBe(ids.length);
      expect(got().map((e) => e.dataSetId)).toEqual(posted);
    },
  );
});
