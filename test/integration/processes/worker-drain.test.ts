// @module-tag embedded
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createSubscription,
  deliveryDatabase,
  insertNotifications,
  seedApp,
  startWorkerProcess,
  stopWorkerProcess,
  waitFor,
  type DeliveryDb,
  type WorkerProcess,
} from "@/test/helpers/delivery-fixture";
import { startHttpsReceiver, type HttpsReceiver } from "@/test/helpers/https-receiver";

// A worker told to stop (SIGTERM) while a delivery is in flight to a receiver slower than the
// drain allows: it exits 0 within the drain and gives the delivery back, and another worker
// sends it at once. The lease running out (120 s) could not hand it over in time, and the other
// worker's claim leaves a live lease alone: only the drain can (its NOTIFY wakes the other).

let db: DeliveryDb;
let receiver: HttpsReceiver;
let app: { appId: number; signingSecret: string; clientId: string };
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  db = await deliveryDatabase("worker-drain");
  receiver = await startHttpsReceiver({ ca: db.ca });
  app = await seedApp(db);
});

afterAll(async () => {
  for (const w of workers) await stopWorkerProcess(w);
  await receiver?.close();
  await db?.close();
});

async function launch(extra: Record<string, string>) {
  const worker = startWorkerProcess(db.workerEnv({ DELIVERY_LEASE_SECONDS: "120", SIMULATOR: "0", ...extra }));
  workers.push(worker);
  await worker.ready;
  return worker;
}

describe("a worker's drain", () => {
  it(
    "gives back a delivery still in flight when the drain time is up; another worker sends it at once",
    { timeout: 120_000 },
    async () => {
      // The first request gets no answer until the first worker has exited (its drain allows 2 s),
      // however long the second worker takes to start; any later one is answered at once. (A fixed
      // 8 s wait was answered before the drain began on a busy machine, where starting the second
      // worker took longer than that.)
      let calls = 0;
      let firstExited = () => {};
      const untilFirstExited = new Promise<void>((resolve) => (firstExited = resolve));
      receiver.route("/slow", async () => {
        if (calls++ === 0) await untilFirstExited;
        return { status: 200 };
      });
      const first = await launch({ DRAIN_TIMEOUT_SECONDS: "2" });
      const sub = await createSubscription(db.sql, {
        appId: app.appId,
        clientId: app.clientId,
        deliveries: [{ type: "HTTP_POST", postUrl: `${receiver.url}/slow` }],
      });
      const [id] = await insertNotifications(db.sql, {
        appId: app.appId,
        clientId: app.clientId,
        subscriptionId: sub.subscriptionId,
        deliveryIds: sub.deliveryIds,
      });
      await waitFor(async () => receiver.on("/slow").length === 1, { what: "the first send in flight" });
      const [lease] = await db.sql`select lease_owner from notification_deliveries where notification_id = ${id!}`;
      expect(lease!.lease_owner).toContain(`:${first.pid}:`);

      // The second worker starts as the first is told to stop, not before: a send gets 10 s, and on a
      // busy machine (load 16) starting a worker took longer than that, so the send timed out before
      // the drain began. Whether it is up before the give-back (its claim every second leaves the live
      // lease alone, the NOTIFY wakes it) or after (it claims at start), it sends at once.
      const second = startWorkerProcess(db.workerEnv({ DELIVERY_LEASE_SECONDS: "120", SIMULATOR: "0" }));
      workers.push(second);
      const exited = new Promise<number | null>((resolve) => first.child.once("exit", (code) => resolve(code)));
      process.kill(first.pid, "SIGTERM");
      expect(await exited).toBe(0);
      firstExited();
      await second.ready;

      await waitFor(
        async () =>
          (await db.sql`select status from notification_deliveries where notification_id = ${id!}`)[0]!.status ===
          "DELIVERED",
        { what: "the delivery DELIVERED", timeoutMs: 30_000 },
      );
      const attempts =
        await db.sql`select worker_id, outcome, error, latency_ms from delivery_attempts where notification_id = ${id!} order by id`;
      expect(attempts, JSON.stringify(attempts)).toHaveLength(1);
      expect(attempts[0]!.outcome).toBe("DELIVERED");
      expect(attempts[0]!.worker_id).toContain(`:${second.pid}:`);
      expect(receiver.on("/slow").map((r) => r.headers["webhook-id"])).toEqual([String(id), String(id)]);
    },
  );
});
