import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type net from "node:net";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, createDriver, testSql, uniqueName } from "@/test/helpers/api";
import { waitFor } from "@/test/helpers/delivery-fixture";
import { createPartnerApp } from "@/test/helpers/fixtures";
import { freePort, root } from "@/test/helpers/processes";
import { startTcpCut, type TcpCut } from "@/test/helpers/tcp-cut";
import { webhookBodyProblem } from "@/test/helpers/webhook-schemas";
import type { TestApp } from "@/test/integration/global-setup";

// `wayline listen` and `wayline trigger` (docs/sdk.md#the-wayline-command) as a partner runs them: child
// processes of the repository's `wayline` bin against the suite's service, forwarding to a local receiver
// that verifies each signature with the standardwebhooks library. Listen reads the event stream (or, with
// --poll, the feed's pages) through a loopback TCP forwarder the test can cut. Stopped, killed, cut off and
// started again, it resumes from its saved cursor: every event of the app's feed arrives once, none twice.

const bin = path.join(root, "node_modules", ".bin", "wayline");
let app: TestApp;
let vehicleId: string;
let dir: string;

type Received = { id: string; type: string; body: string };
const received: Received[] = [];
let answer = 200;
let server: http.Server;
let port: number;
/** Between listen and the service: cut to break its stream. */
let line: TcpCut;

type Child = ChildProcess & { output: () => string };
const children: Child[] = [];

function run(args: string[], env: Record<string, string> = {}): Child {
  const child = spawn(bin, args, {
    cwd: dir,
    env: {
      NODE_ENV: "production",
      PATH: process.env.PATH!,
      HOME: dir,
      WAYLINE_URL: args[0] === "listen" ? line.url : inject("baseUrl"),
      WAYLINE_CLIENT_ID: app.sandbox.clientId,
      WAYLINE_CLIENT_SECRET: app.sandbox.clientSecret,
      WAYLINE_SIGNING_SECRET: app.signingSecret,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr.on("data", (c: Buffer) => (output += c.toString()));
  const started = Object.assign(child, { output: () => output });
  children.push(started);
  return started;
}

/** Its exit code and output, once it exits: within 30 s, or the test fails with what it printed. */
async function finish(child: Child) {
  let timer: NodeJS.Timeout | undefined;
  const code = await Promise.race([
    new Promise<number | null>((resolve) => {
      if (child.exitCode !== null) resolve(child.exitCode);
      else child.once("exit", (c) => resolve(c));
    }),
    new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(`wayline ${child.spawnargs.slice(1).join(" ")} still running after 30 s:\n${child.output()}`),
          ),
        30_000,
      );
    }),
  ]).finally(() => clearTimeout(timer));
  return { code, output: child.output() };
}

async function trigger(type: string) {
  const { code, output } = await finish(run(["trigger", type, "--vehicle", vehicleId]));
  expect(code, output).toBe(0);
  expect(output).toContain(`Triggered ${type}`);
}

/**
 * What holds the feed back, for a failure's message: its horizon is the oldest transaction still
 * running in the whole cluster (server/notifications/feed.ts), whichever database it writes; and
 * what the feed holds now beside what the receiver got.
 */
async function feedHorizon(): Promise<string> {
  const sql = postgres(inject("databaseUrl"), { max: 1, onnotice: () => {} });
  try {
    const rows = await sql`
      select datname, application_name, state, backend_xid::text as xid, now() - xact_start as open_for, left(query, 120) as query
        from pg_stat_activity where backend_xid is not null order by xact_start`;
    const clientToken = (await createDriver("sandbox", app.sandbox)).clientToken;
    const feed = await api("sandbox").get("/eventFeed/?searchLimit=1000", clientToken);
    const events = (feed.body.events as { eventId: string; _type: string }[] | undefined) ?? [];
    return [
      `transactions holding an xid: ${JSON.stringify(rows)}`,
      `the feed now: ${events.map((e) => `${e._type} ${e.eventId}`).join(", ")}`,
      `received: ${received.map((r) => `${r.type} ${r.id}`).join(", ")}`,
    ].join("\n");
  } finally {
    await sql.end();
  }
}

/** The event id in the cursor listen saved last (its position: base64url "<tx>.<id>.<issued ms>"). */
function savedEventId(): string | undefined {
  let state: Record<string, { cursor: string }>;
  try {
    state = JSON.parse(fs.readFileSync(path.join(dir, ".wayline", "listen.json"), "utf8"));
  } catch {
    return undefined;
  }
  const [cursor] = Object.values(state).map((s) => s.cursor);
  return cursor ? Buffer.from(cursor.split(".")[1]!, "base64url").toString("utf8").split(".")[1] : undefined;
}

/** Every event received was the feed's, in its order, once each; and the bodies are the catalog's. */
async function expectTheFeedOnce() {
  const clientToken = (await createDriver("sandbox", app.sandbox)).clientToken;
  const ids = received.map((r) => r.id);
  expect(new Set(ids).size, "no event twice").toBe(ids.length);
  expect(ids, "every event of the feed, in its order").toEqual(await feedEventIds(clientToken));
  for (const r of received) expect(webhookBodyProblem(r.body)).toBeNull();
}

/**
 * Waits for `probe` (at most 30 s); when it times out, the failure says what listen printed and what
 * held the feed back. Each test's own bound is the sum of its waits, so a wait always fails first.
 */
const soon = (listen: Child, what: string, probe: () => boolean, timeoutMs = 30_000) =>
  waitFor(async () => probe(), { what, timeoutMs }).catch(async (e: Error) => {
    throw new Error(`${e.message}\n${listen.output()}\n${await feedHorizon()}`);
  });

const waitForOutput = (listen: Child, pattern: RegExp, what: string, timeoutMs = 30_000) =>
  soon(listen, what, () => pattern.test(listen.output()), timeoutMs);

/** Every event id the app's feed holds, oldest first. */
async function feedEventIds(token: string): Promise<string[]> {
  const reply = await api("sandbox").get("/eventFeed/?searchLimit=1000", token);
  expect(reply.status, reply.text).toBe(200);
  return (reply.body.events as { eventId: string }[]).map((e) => e.eventId);
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "wayline-listen-"));
  app = await createPartnerApp(uniqueName("listen-app"));
  const driver = await createDriver("sandbox", app.sandbox);
  const vehicle = await api("sandbox").post("/vehicle/", { label: "Listen car" }, driver.accessToken);
  vehicleId = String(vehicle.body.vehicle.vehicleId);
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      if (answer !== 200) {
        res.writeHead(answer).end();
        return;
      }
      try {
        new Webhook(app.signingSecret).verify(body, {
          "webhook-id": String(req.headers["webhook-id"]),
          "webhook-timestamp": String(req.headers["webhook-timestamp"]),
          "webhook-signature": String(req.headers["webhook-signature"]),
        });
      } catch {
        res.writeHead(400).end();
        return;
      }
      const parsed = JSON.parse(body) as { _type: string; eventId: string };
      received.push({ id: String(req.headers["webhook-id"]), type: parsed._type, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as net.AddressInfo).port;
  line = await startTcpCut(inject("baseUrl"));
});

afterAll(async () => {
  // A failed test may leave its listen running: it must not outlive the file.
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await line?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("wayline listen and trigger", () => {
  it("wrong credentials, an unreachable service, a missing flag: one clear line each, exit code ≠ 0, no stack trace", async () => {
    const wrong = await finish(
      run(["listen", "--forward-to", "http://127.0.0.1:9/"], { WAYLINE_CLIENT_SECRET: "nope" }),
    );
    expect(wrong.code).toBe(1);
    expect(wrong.output.trim().split("\n")).toEqual([expect.stringMatching(/^wayline: .*invalid_client/)]);

    const unreachable = await finish(
      run(["trigger", "WAYPOINT", "--vehicle", "1"], { WAYLINE_URL: `http://127.0.0.1:${await freePort()}` }),
    );
    expect(unreachable.code).toBe(1);
    expect(unreachable.output.trim().split("\n")).toEqual([
      expect.stringMatching(/^wayline: cannot reach .*ECONNREFUSED/),
    ]);

    const missing = await finish(run(["listen"]));
    expect(missing.code).toBe(2);
    expect(missing.output.trim()).toMatch(/^wayline: Missing --forward-to/);

    const lifecycle = await finish(run(["trigger", "VEHICLECREATED", "--vehicle", vehicleId]));
    expect(lifecycle.code).toBe(2);
    expect(lifecycle.output).not.toMatch(/\n\s+at /);
  });

  it("forwards each event signed, retries a local 500 with backoff, and resumes after a restart: nothing lost, nothing twice", async () => {
    const forwardTo = `http://127.0.0.1:${port}/hooks`;
    let listen = run(["listen", "--forward-to", forwardTo]);
    await soon(listen, "listen ready", () => listen.output().includes("Forwarding"));

    await trigger("WAYPOINT");
    await soon(listen, "the WAYPOINT forwarded", () =>
      /WAYPOINT \d+ vehicle \d+ {2}-> 204 in \d+ ms/.test(listen.output()),
    );

    // The local server fails: one line per attempt, then the events arrive once it answers again. (The
    // LOWBATTERY trigger's data sets carry a position, so the WAYPOINT subscription fires too.)
    answer = 500;
    await trigger("LOWBATTERY");
    await soon(listen, "the retry line", () => /-> 500 in \d+ ms; retrying in 1 s/.test(listen.output()));
    // Backoff doubles while the local server keeps failing.
    await soon(listen, "the second retry line", () => /-> 500 in \d+ ms; retrying in 2 s/.test(listen.output()));
    answer = 200;
    await soon(listen, "the LOWBATTERY", () => received.some((r) => r.type === "LOWBATTERY"));

    // Stopped; events happen meanwhile; started again, it forwards them.
    listen.kill("SIGTERM");
    expect((await finish(listen)).code).toBe(0);
    await trigger("TROUBLECODE");
    await trigger("VEHICLEHARSHACCEL");
    listen = run(["listen", "--forward-to", forwardTo]);
    await soon(listen, "the events made while stopped", () => received.some((r) => r.type === "VEHICLEHARSHACCEL"));
    expect(listen.output()).toContain("resuming");
    listen.kill("SIGTERM");
    await finish(listen);

    // It read the stream, not the pages.
    expect(listen.output()).toContain("reading the event stream");
    await expectTheFeedOnce();
    expect([...new Set(received.map((r) => r.type))].sort()).toEqual([
      "LOWBATTERY",
      "TROUBLECODE",
      "VEHICLEHARSHACCEL",
      "WAYPOINT",
    ]);
  }, 300_000);

  it("--poll reads the feed's pages from the same place; killed with SIGKILL and started again by stream, it resumes: nothing lost, nothing twice", async () => {
    const forwardTo = `http://127.0.0.1:${port}/hooks`;
    const count = (type: string) => received.filter((r) => r.type === type).length;
    const polling = run(["listen", "--poll", "--forward-to", forwardTo]);
    await waitForOutput(polling, /resuming.*reading the feed's pages every 1 s/, "listen --poll ready");
    await trigger("VEHICLEHARSHDECEL");
    await soon(polling, "the event, by polling", () => count("VEHICLEHARSHDECEL") > 0);
    // Killed only once its place is saved (the save follows the local answer; a kill between the two
    // sends that event again, which receivers drop by webhook-id: docs/sdk.md).
    await soon(polling, "the place saved", () => savedEventId() === received.at(-1)!.id);
    polling.kill("SIGKILL");
    await finish(polling);

    await trigger("VEHICLEHARSHRIGHT");
    const streaming = run(["listen", "--forward-to", forwardTo]);
    await soon(streaming, "the event made while it was dead", () => count("VEHICLEHARSHRIGHT") > 0);
    expect(streaming.output()).toMatch(/resuming.*reading the event stream/);
    streaming.kill("SIGTERM");
    expect((await finish(streaming)).code).toBe(0);
    await expectTheFeedOnce();
  }, 300_000);

  it("a stream cut, then the service out of reach: reopened with backoff from the last event; the events made meanwhile arrive once", async () => {
    const forwardTo = `http://127.0.0.1:${port}/hooks`;
    const count = (type: string) => received.filter((r) => r.type === type).length;
    const listen = run(["listen", "--forward-to", forwardTo]);
    await waitForOutput(listen, /resuming/, "listen ready");
    // An event through the stream: it is open.
    await trigger("VEHICLEHARSHLEFT");
    await soon(listen, "the event before the cut", () => count("VEHICLEHARSHLEFT") > 0);

    // The connection drops and new ones are refused: each attempt fails, the waits double.
    line.setDown(true);
    line.cut();
    await trigger("VEHICLEIMPACT");
    await waitForOutput(listen, /the event stream broke \(.*\); reopening in 0\.5 s/, "the first reconnect line");
    await waitForOutput(listen, /the event stream broke \(.*\); reopening in 1 s/, "the second, waiting longer");
    expect(count("VEHICLEIMPACT")).toBe(0);
    line.setDown(false);
    await soon(listen, "the event made while cut off", () => count("VEHICLEIMPACT") > 0);
    // A stream cut while open is reopened at once, from its last event.
    await trigger("VEHICLETOWED");
    line.cut();
    await trigger("VEHICLECONNECTED");
    await soon(
      listen,
      "the events on both sides of a cut",
      () => count("VEHICLECONNECTED") > 0 && count("VEHICLETOWED") > 0,
    );
    listen.kill("SIGTERM");
    expect((await finish(listen)).code).toBe(0);
    await expectTheFeedOnce();
  }, 300_000);

  it("a stream gone silent (no heartbeat for 30 s, the connection never closed) is taken for dead and reopened: the event made meanwhile arrives once", async () => {
    const forwardTo = `http://127.0.0.1:${port}/hooks`;
    const count = (type: string) => received.filter((r) => r.type === type).length;
    const listen = run(["listen", "--forward-to", forwardTo]);
    await waitForOutput(listen, /resuming/, "listen ready");
    await trigger("VEHICLEDISCONNECTED");
    await soon(listen, "the event before", () => count("VEHICLEDISCONNECTED") > 0);
    // The open connection stops carrying bytes, both ways, and stays open.
    line.freeze();
    await trigger("NUMERICDATAKEY");
    await waitForOutput(
      listen,
      /the event stream broke \(nothing heard for 30 s\); reopening now/,
      "the silence noticed",
      60_000,
    );
    await soon(listen, "the event made while silent", () => count("NUMERICDATAKEY") > 0);
    listen.kill("SIGTERM");
    expect((await finish(listen)).code).toBe(0);
    await expectTheFeedOnce();
  }, 300_000);

  it("its token expiring while the stream is open: the service ends the stream, listen opens it again with a renewed token, the next event arrives once", async () => {
    const forwardTo = `http://127.0.0.1:${port}/hooks`;
    const count = (type: string) => received.filter((r) => r.type === type).length;
    const listen = run(["listen", "--forward-to", forwardTo]);
    await waitForOutput(listen, /resuming/, "listen ready");
    const before = count("VEHICLEHARSHACCEL");
    await trigger("VEHICLEHARSHACCEL");
    await soon(listen, "the event before", () => count("VEHICLEHARSHACCEL") > before);
    // Every app token of the sandbox credential lapses now, listen's among them (the service
    // re-checks an open stream's token every 2 s: docs/event-feed.md#the-stream).
    const lapsed = await testSql()`
      update oauth_tokens t set access_expires_at = now() - interval '1 minute'
        from app_credentials c
       where t.credential_id = c.id and c.client_id = ${app.sandbox.clientId} and t.account_id is null
         and t.access_expires_at > now()
      returning t.id`;
    expect(lapsed.length).toBeGreaterThan(0);
    await waitForOutput(listen, /the event stream ended; reopening now/, "the stream ended by the service");
    const after = count("VEHICLEHARSHACCEL");
    await trigger("VEHICLEHARSHACCEL");
    await soon(listen, "the event after, on the renewed token", () => count("VEHICLEHARSHACCEL") > after);
    listen.kill("SIGTERM");
    expect((await finish(listen)).code).toBe(0);
    await expectTheFeedOnce();
  }, 300_000);
  it("a local target that refuses connections: one line per attempt, the wait doubling, nothing saved", async () => {
    const stateFile = path.join(dir, "refused.json");
    const closed = `http://127.0.0.1:${await freePort()}/hooks`;
    const listen = run(["listen", "--forward-to", closed, "--from-start", "--state-file", stateFile]);
    await waitForOutput(listen, /Forwarding/, "listen ready");
    await trigger("WAYPOINT");
    await waitForOutput(listen, /ECONNREFUSED in \d+ ms; retrying in 2 s/, "the second refused attempt");
    listen.kill("SIGTERM");
    const { code, output } = await finish(listen);
    expect(code).toBe(0);
    expect(output).toMatch(/-> ECONNREFUSED in \d+ ms; retrying in 1 s\n.*-> ECONNREFUSED in \d+ ms; retrying in 2 s/);
    expect(output).not.toMatch(/\n\s+at /);
    // Nothing was forwarded, so nothing was saved: a next run starts from the same event.
    expect(fs.existsSync(stateFile) ? fs.readFileSync(stateFile, "utf8") : "{}").not.toContain("cursor");
  }, 120_000);
});
