import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { newAccountBody, request } from "@/test/helpers/api";
import { Browser } from "@/test/helpers/browser";
import { startWorkerProcess, stopWorkerProcess, waitFor, type WorkerProcess } from "@/test/helpers/delivery-fixture";
import { freshDatabase, type FreshDatabase } from "@/test/helpers/fresh-database";
import { ensureTestCa, startHttpsReceiver, type HttpsReceiver } from "@/test/helpers/https-receiver";
import {
  freePort,
  runScript,
  serviceEnv,
  spawnApp,
  stopProcess,
  waitForHealth,
  type ServiceEnv,
} from "@/test/helpers/processes";
import { startRoundRobinProxy, type RoundRobinProxy } from "@/test/helpers/round-robin-proxy";
import { dataSet, waypoint } from "@/test/helpers/telemetry";

// The service as a fleet on one PostgreSQL database (docs/operations.md#a-fleet): two app
// processes behind a round-robin proxy, two delivery workers (the simulator loop in the first,
// and, competing with it for the same runs, in the first app process),
// and a realistic mix through the proxy at once: a partner making accounts, vehicles and
// subscriptions with a real HTTPS receiver, a driver signed in on the site, 20 devices posting
// single and batched data sets, a real-time simulation, failed sign-ins. Midway one app process
// and one worker are killed (SIGKILL). After the survivors catch up: every data set the devices
// posted is stored once, every notification is delivered, none twice (except what the killed
// worker had sent but not yet recorded, sent once more), the simulation was driven by one loop,
// the sign-in throttle counted failures made on both processes. PostgreSQL only: the embedded
// database lives inside one process.

const DEVICES = 20;
const ROUNDS = 8; // per device: singles and batches of 5 in turn → 4 + 4×5 = 24 data sets

type Proc = { child: ReturnType<typeof spawnApp>["child"]; output(): string };
let database: FreshDatabase;
let sql: postgres.Sql;
let dataDir: string;
let receiver: HttpsReceiver;
let proxy: RoundRobinProxy;
const apps: Proc[] = [];
const workers: WorkerProcess[] = [];

describe.skipIf(inject("embedded"))("a fleet on one PostgreSQL database", () => {
  let env: ServiceEnv;
  let upstreams: string[];

  beforeAll(async () => {
    database = await freshDatabase(inject("databaseUrl"), "fleet");
    sql = postgres(database.url, { max: 2, onnotice: () => {} });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "wayline-fleet-"));
    const ca = ensureTestCa(path.join(dataDir, "test-ca"));
    receiver = await startHttpsReceiver({ ca });
    const ports = [await freePort(), await freePort()];
    // One configuration for every role, as an operator would give it: the session secret shared
    // (a session made on one process is valid on the other), behind a proxy (TRUST_PROXY).
    env = {
      ...serviceEnv({ port: ports[0]!, dataDir, databaseUrl: database.url }),
      NEXTAUTH_SECRET: "fleet-test-session-secret-0123456789abcdef",
      TRUST_PROXY: "1",
      SIMULATOR: "0",
      DELIVERY_LEASE_SECONDS: "5",
    };
    // Both app processes start at once: their migrations take turns under the advisory lock.
    upstreams = ports.map((p) => `http://127.0.0.1:${p}`);
    const started = ports.map((port, i) => spawnApp({ ...env, PORT: String(port), SIMULATOR: i === 0 ? "1" : "0" }));
    apps.push(...started);
    await Promise.all(started.map((s, i) => waitForHealth(upstreams[i]!, s.child, s.output)));
    workers.push(startWorkerProcess({ ...env, SIMULATOR: "1" }), startWorkerProcess(env));
    await Promise.all(workers.map((w) => w.ready));
    proxy = await startRoundRobinProxy(upstreams);
  }, 240_000);

  afterAll(async () => {
    await proxy?.close();
    await Promise.all(apps.map((a) => stopProcess(a.child)));
    await Promise.all(workers.map((w) => stopWorkerProcess(w)));
    await receiver?.close();
    await sql?.end();
    await database?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test(
    "serves a mixed load, survives losing an app process and a worker, and loses or doubles nothing",
    { timeout: 300_000 },
    async () => {
      const base = proxy.url;
      const api = `${base}/sandbox/api`;
      const app = JSON.parse(
        (
          await runScript(
            "app-create.ts",
            ["--name", "Fleet partner", "--redirect-uri", "https://partner.example/callback", "--json"],
            env,
          )
        ).stdout,
      );
      const basic = `Basic ${Buffer.from(`${app.sandbox.clientId}:${app.sandbox.clientSecret}`).toString("base64")}`;
      const oauth = async (form: Record<string, string>) => {
        const r = await request("POST", `${base}/sandbox/oauth/token`, {
          body: new URLSearchParams(form).toString(),
          headers: { Authorization: basic, "Content-Type": "application/x-www-form-urlencoded" },
        });
        expect(r.status, r.text).toBe(200);
        return r.body.access_token as string;
      };
      const clientToken = await oauth({ grant_type: "client_credentials" });
      // A partner's driver: account, token, vehicle, and a WAYPOINT subscription to the receiver.
      const onboard = async (label: string) => {
        const account = await request("POST", `${api}/account/`, { token: clientToken, json: newAccountBody() });
        expect(account.status, account.text).toBe(200);
        const token = await oauth({ grant_type: "authorization_code", code: account.body.account.accessToken.code });
        const vehicle = await request("POST", `${api}/vehicle/`, { token, json: { label } });
        expect(vehicle.status, vehicle.text).toBe(200);
        const vehicleId = vehicle.body.vehicle.vehicleId as number;
        const sub = await request("POST", `${api}/vehicle/${vehicleId}/eventSubscription/WAYPOINT/`, {
          token,
          json: { postUrl: `${receiver.url}/hooks` },
        });
        expect(sub.status, sub.text).toBe(200);
        return { token, vehicleId };
      };
      const devices = await Promise.all(Array.from({ length: DEVICES }, (_, i) => onboard(`Fleet car ${i}`)));

      // Real-time simulations on vehicles of their own, shared by the two simulator loops.
      const simulations = await Promise.all(
        [21, 22, 23].map(async (seed) => {
          const simulated = await onboard(`Simulated car ${seed}`);
          const run = await request("POST", `${api}/vehicle/${simulated.vehicleId}/simulation/`, {
            token: simulated.token,
            json: { mode: "realtime", templateId: "columbus-downtown-loop", collectionPeriod: 2, seed },
          });
          expect(run.status, run.text).toBe(200);
          return { ...simulated, runId: run.body.simulation.id as number };
        }),
      );

      // The driver, registered and signed in on the site through the proxy.
      const driver = new Browser("198.51.100.7", base);
      const { username, password } = await driver.register("sandbox");
      expect(driver.signedIn).toBe(true);

      // Failed sign-ins (before the load, so that none meets the kill) for the driver's username, from another address, alternating between the
      // processes: the fifth is the one that starts the wait, wherever it lands.
      const attacker = new Browser("203.0.113.50", base);
      for (let i = 1; i <= 4; i++)
        expect((await attacker.signIn("sandbox", username, `guess-${i}`)).problem).toEqual({
          kind: "invalid_credentials",
          waitSeconds: 0,
        });
      expect((await attacker.signIn("sandbox", username, "guess-5")).problem).toEqual({
        kind: "invalid_credentials",
        waitSeconds: 30,
      });

      // --- the load ---
      let posts = 0;
      let killedAt = 0;
      let killedWorkerPid = 0;
      const half = (DEVICES * ROUNDS) / 2;
      // A device posts, and resends what was not answered (a 502 from the proxy when its app process
      // died midway): ingest ignores a data set it already has, so a resend cannot double it.
      const post = async (token: string, vehicleId: number, body: unknown) => {
        for (let attempt = 1; ; attempt++) {
          const r = await request("POST", `${api}/vehicle/${vehicleId}/dataSet/`, { token, json: body }).catch(
            (error: Error) => ({ status: 0, text: error.message }),
          );
          if (r.status === 200) return;
          if ((r.status !== 502 && r.status !== 0) || attempt >= 30)
            throw new Error(`POST dataSet: ${r.status} ${r.text}`);
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      };
      const kill = () => {
        killedAt = Date.now();
        killedWorkerPid = workers[1]!.pid;
        process.kill(apps[1]!.child.pid!, "SIGKILL");
        process.kill(killedWorkerPid, "SIGKILL");
      };
      const start = Date.now() - 2 * 86_400_000;
      const deviceLoad = devices.map(async ({ token, vehicleId }, d) => {
        let minute = 0;
        for (let round = 0; round < ROUNDS; round++) {
          const at = () => new Date(start + minute++ * 60_000);
          const set = (i: number) =>
            dataSet(at(), "RUNNING", [waypoint(39.9 + d * 0.01, -83 + i * 0.001), { key: "GEN_SPEED", value: 30 + i }]);
          await post(token, vehicleId, round % 2 === 0 ? set(0) : Array.from({ length: 5 }, (_, i) => set(i)));
          if (++posts === half) kill();
        }
      });
      const partnerLoad = (async () => {
        for (let i = 0; i < 6; i++) await onboard(`Later car ${i}`);
      })().catch((error: Error) => {
        // Made before the kill or after: one of them may meet the app process dying; the partner
        // would retry, and the rest of the test must not hide a real failure.
        if (!killedAt) throw error;
      });
      const driverLoad = (async () => {
        let sessions = 0;
        while (posts < DEVICES * ROUNDS) {
          const page = await driver.get("/api/auth/session").catch(() => null);
          if (page && page.status === 200) {
            expect(JSON.parse(page.text).user, "the session, valid on either process").toBeTruthy();
            sessions++;
          } else if (!killedAt) throw new Error(`session read failed before the kill: ${page?.status}`);
        }
        return sessions;
      })();

      await Promise.all(deviceLoad);
      await partnerLoad;
      expect(await driverLoad).toBeGreaterThan(0);
      expect(killedAt).toBeGreaterThan(0);
      expect(
        apps[1]!.child.signalCode ?? (await new Promise((r) => apps[1]!.child.once("exit", (_c, s) => r(s)))),
      ).toBe("SIGKILL");
      // Both app processes served before the kill (round robin).
      expect(Math.min(...proxy.served.values())).toBeGreaterThan(0);

      // The throttle is in the database: the owner is refused on the surviving process too.
      const owner = new Browser("192.0.2.20", base);
      const refused = await owner.signIn("sandbox", username, password);
      expect(refused.problem).toEqual({ kind: "throttled", retryAfterSeconds: expect.any(Number) });
      const [throttle] =
        await sql`select failures from sign_in_throttles where key = ${`account:sandbox:${username.toLowerCase()}`}`;
      expect(throttle!.failures).toBe(5);

      // --- after the survivors catch up ---
      const vehicleIds = devices.map((d) => d.vehicleId);
      const expectedSets = DEVICES * ((ROUNDS / 2) * 1 + (ROUNDS / 2) * 5);
      const [stored] =
        await sql`select count(*)::int as n, count(distinct (vehicle_id, recorded_at))::int as distinct_n from data_sets where vehicle_id = any(${vehicleIds})`;
      expect(stored).toEqual({ n: expectedSets, distinct_n: expectedSets });
      // One WAYPOINT notification per data set: no data set evaluated twice.
      const [made] = await sql`select count(*)::int as n from notifications where vehicle_id = any(${vehicleIds})`;
      expect(made!.n).toBe(expectedSets);
      await waitFor(
        async () =>
          (await sql`select count(*)::int as n from notification_deliveries where status <> 'DELIVERED'`)[0]!.n === 0,
        { what: "every delivery DELIVERED", timeoutMs: 90_000 },
      );
      const [deliveries] =
        await sql`select count(*)::int as n from notification_deliveries nd join notifications n on n.id =
          nd.notification_id where n.vehicle_id = any(${vehicleIds})`;
      expect(deliveries!.n).toBe(expectedSets);

      const received = new Map<string, number[]>();
      for (const r of receiver.on("/hooks"))
        received.set(r.headers["webhook-id"]!, [...(received.get(r.headers["webhook-id"]!) ?? []), r.receivedAt]);
      const notificationIds = (await sql`select id::text from notifications where vehicle_id = any(${vehicleIds})`).map(
        (r) => r.id as string,
      );
      for (const id of notificationIds) expect(received.has(id), `notification ${id} delivered`).toBe(true);
      // A webhook received twice is one the killed worker sent and could not record: the survivor
      // sent it again after the kill, and the attempt log holds one delivery only, not the killed one's.
      const twice = [...received].filter(([, times]) => times.length > 1);
      for (const [id, times] of twice) {
        expect(times).toHaveLength(2);
        expect(Math.max(...times)).toBeGreaterThanOrEqual(killedAt);
        const attempts =
          await sql`select worker_id from delivery_attempts where notification_id = ${id} and outcome = 'DELIVERED'`;
        expect(attempts).toHaveLength(1);
        expect(attempts[0]!.worker_id).not.toContain(`:${killedWorkerPid}:`);
      }

      // The simulations: stopped, then each one's data sets are the unbroken schedule (one every
      // 2 s), each stored once and counted once: no run driven by two loops at a time.
      for (const { vehicleId, token, runId } of simulations) {
        // On a loaded machine the runs may have driven only a few sets by now: let each drive a few.
        await waitFor(
          async () =>
            (await sql`select data_set_count from simulation_runs where id = ${runId}`)[0]!.data_set_count > 5,
          { what: "the run drove a few data sets", timeoutMs: 60_000 },
        );
        const stop = await request("DELETE", `${api}/vehicle/${vehicleId}/simulation/${runId}`, { token });
        expect(stop.status, stop.text).toBe(200);
        // (A stopped run parks the vehicle: one more data set, posted by a loop.)
        const simRun = await waitFor(
          async () =>
            (await sql`select data_set_count, park_pending from simulation_runs where id = ${runId}`).find(
              (r) => !r.park_pending,
            ),
          { what: "the run parked" },
        );
        const sets =
          await sql`select recorded_at, ignition_status from data_sets where vehicle_id = ${vehicleId} order by recorded_at`;
        expect(simRun.data_set_count).toBeGreaterThan(5);
        expect(sets.length).toBe(simRun.data_set_count);
        const scheduled = sets.filter((s) => s.ignition_status !== "OFF");
        const t0 = (scheduled[0]!.recorded_at as Date).getTime();
        scheduled.forEach((s, i) => expect((s.recorded_at as Date).getTime() - t0).toBe(i * 2000));
      }
      const driven = await sql`select coalesce(sum(data_set_count), 0)::int as n from simulation_runs`;

      console.log(
        `fleet: ${expectedSets} data sets, ${notificationIds.length} notifications, ${driven[0]!.n} ` +
          `simulated data sets, ${twice.length} webhooks sent twice by the killed worker's unrecorded batch; ` +
          `proxy served ${[...proxy.served.values()].join(" / ")}`,
      );
    },
  );
});
