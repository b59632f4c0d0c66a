// @module-tag embedded
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { request } from "@/test/helpers/api";
import { idleSockets, keepAliveAgent, send } from "@/test/helpers/keep-alive";
import { startAppWithOwnDatabase, type AppWithOwnDatabase } from "@/test/helpers/app-with-own-database";
import { partnerAccount } from "@/test/helpers/partner-account";
import { serviceV8Flags } from "@/test/helpers/processes";
import { simulatedTrip } from "@/test/helpers/telemetry";

// The graceful drain (docs/operations.md#stopping-a-process): SIGTERM during a burst of data-set
// POSTs. Every request the server had accepted is answered 200 and stored; readiness turns 503
// while the process drains; the process exits 0. Once for `npm start` as one process, once as a
// cluster of two HTTP processes (the signal to the primary drains them all).

const BURST = 16;
const WATCHERS = 4;

describe.each([1, 2])("SIGTERM drains `npm start` with WEB_CONCURRENCY=%i", (processes) => {
  let own: AppWithOwnDatabase;

  beforeAll(async () => {
    // As `npm start` runs it, V8 flags included (the other tests' services run on Node's defaults).
    own = await startAppWithOwnDatabase(
      `drain-${processes}`,
      { DRAIN_TIMEOUT_SECONDS: "30", WEB_CONCURRENCY: String(processes) },
      serviceV8Flags,
    );
  }, 240_000);

  afterAll(async () => {
    await own?.stop();
  });

  // Before the drain, which ends them: every process that serves HTTP runs with the V8 flags of
  // `npm start` (package.json), the young generation that keeps a batch's garbage out of the old one
  // (docs/operations.md#memory); the forked HTTP processes inherit them from the primary.
  test("every HTTP process runs with npm start's V8 flags", () => {
    expect(serviceV8Flags).toContainEqual(expect.stringMatching(/^--max-semi-space-size=\d+$/));
    const pid = own.app.pid;
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
    // One process serves HTTP itself; a cluster's primary forks that many (and no other child: the
    // worker and the simulator run inside the primary).
    const http = processes === 1 ? [String(pid)] : children;
    expect(http).toHaveLength(processes);
    for (const p of http) {
      const argv = fs.readFileSync(`/proc/${p}/cmdline`, "utf8").split("\0");
      for (const flag of serviceV8Flags) expect(argv).toContain(flag);
    }
  });

  test(
    "requests accepted before SIGTERM all succeed, /api/health/ready turns 503 draining, exit code 0",
    { timeout: 240_000 },
    async () => {
      const base = own.app.baseUrl;
      const { token } = await partnerAccount(own);
      const vehicle = await request("POST", `${base}/sandbox/api/vehicle/`, { token, json: { label: "Drain car" } });
      expect(vehicle.status, vehicle.text).toBe(200);
      const vehicleId = vehicle.body.vehicle.vehicleId as number;

      // BURST connections for the POSTs and one more to watch readiness, opened (accepted by the
      // server) before the signal.
      const agent = keepAliveAgent(BURST + 1);
      const warm = await Promise.all(Array.from({ length: BURST + 1 }, () => send(agent, `${base}/api/health/live`)));
      expect(warm.every((r) => r.status === 200)).toBe(true);
      expect(idleSockets(agent)).toBe(BURST + 1);
      // Readiness is watched on WATCHERS connections opened now: an answer whose headers went out
      // just as the signal came is a 200 that already says `Connection: close` (the process drains),
      // and the next question must go on another connection the server had accepted.
      const watcher = keepAliveAgent(WATCHERS);
      const warmWatchers = await Promise.all(
        Array.from({ length: WATCHERS }, () => send(watcher, `${base}/api/health/ready`)),
      );
      expect(warmWatchers.map((r) => r.status)).toEqual(Array(WATCHERS).fill(200));
      expect(idleSockets(watcher)).toBe(WATCHERS);

      // Each POST a whole trip (a batch of 12 data sets), an hour apart so that none overlaps.
      const start = Date.now() - 48 * 3_600_000;
      const bodies = Array.from({ length: BURST }, (_, i) =>
        JSON.stringify(simulatedTrip(new Date(start + i * 3_600_000), { points: 10 })),
      );
      const exited = new Promise<number | null>((resolve) => own.app.child().once("exit", (code) => resolve(code)));
      const posts = bodies.map((body) =>
        send(agent, `${base}/sandbox/api/vehicle/${vehicleId}/dataSet/`, {
          method: "POST",
          body,
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        }),
      );
      process.kill(own.app.pid, "SIGTERM");

      // Readiness, asked on the connections held open, answers 200 until the process has the
      // signal, then 503 "draining" (and closes that connection).
      let ready: { status: number; text: string };
      do ready = await send(watcher, `${base}/api/health/ready`);
      while (ready.status === 200);
      expect(ready.status).toBe(503);
      expect(JSON.parse(ready.text)).toEqual({ status: "draining" });

      const answers = await Promise.all(posts);
      for (const answer of answers) expect(answer.status, answer.text).toBe(200);
      expect(answers.some((a) => a.headers.connection === "close")).toBe(true);
      expect(await exited).toBe(0);
      agent.destroy();
      watcher.destroy();

      // New connections are refused once the process is gone; started again on the same database,
      // it holds every data set the burst posted, once.
      await expect(fetch(`${base}/api/health/live`)).rejects.toThrow();
      await own.app.restart();
      const stored = await request("GET", `${base}/sandbox/api/vehicle/${vehicleId}/dataSet/?searchLimit=1`, { token });
      expect(stored.status, stored.text).toBe(200);
      expect(stored.body.totalRecords).toBe(BURST * 12);
    },
  );
});
