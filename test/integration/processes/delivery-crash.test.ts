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

// Never lost, never doubled in normal operation: worker processes killed mid-burst and run side
// by side, against a real HTTPS receiver. Leases are short here (3 s) so the test need not wait
// the default two minutes for a dead worker's deliveries to be taken over. Nothing but the claim
// takes them over (an expired lease is due again: server/delivery/queue.ts).

let db: DeliveryDb;
let receiver: HttpsReceiver;
let app: { appId: number; signingSecret: string; clientId: string };
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  db = await deliveryDatabase("delivery-crash");
  receiver = await startHttpsReceiver({ ca: db.ca });
  app = await seedApp(db);
});

afterAll(async () => {
  for (const w of workers) await stopWorkerProcess(w);
  await receiver?.close();
  await db?.close();
});

const env = (extra: Record<string, string> = {}) => db.workerEnv({ DELIVERY_LEASE_SECONDS: "3", ...extra });

async function launch(extra: Record<string, string> = {}) {
  const worker = startWorkerProcess(env(extra));
  workers.push(worker);
  await worker.ready;
  return worker;
}

async function burst(path: string, total: number, perStatement: number) {
  const sub = await createSubscription(db.sql, {
    appId: app.appId,
    clientId: app.clientId,
    deliveries: [{ type: "HTTP_POST", postUrl: `${receiver.url}${path}` }],
  });
  const ids: number[] = [];
  for (let i = 0; i < total; i += perStatement) {
    ids.push(
      ...(await insertNotifications(db.sql, {
        appId: app.appId,
        clientId: app.clientId,
        subscriptionId: sub.subscriptionId,
        deliveryIds: sub.deliveryIds,
        count: perStatement,
      })),
    );
  }
  return ids;
}

const pendingCount = async (ids: number[]) =>
  Number(
    (
      await db.sql<
        { n: string }[]
      >`select count(*) as n from notification_deliveries where notification_id = any(${`{${ids.join(",")}}`}::bigint[]) and status <> 'DELIVERED'`
    )[0]!.n,
  );

describe("delivery across worker crashes", () => {
  it("a worker killed (SIGKILL) mid-burst and restarted: every notification delivered at least once, none lost", async () => {
    receiver.route("/crash", () => ({ status: 200, delayMs: 15 }));
    const first = await launch();
    const ids = await burst("/crash", 1000, 100);
    await waitFor(async () => receiver.on("/crash").length >= 150 && true, { what: "the burst under way" });
    process.kill(first.pid, "SIGKILL");
    await new Promise<void>((resolve) =>
      first.child.exitCode !== null || first.child.signalCode !== null
        ? resolve()
        : first.child.once("exit", () => resolve()),
    );
    const atKill = new Set(receiver.on("/crash").map((r) => Number(r.headers["webhook-id"]))).size;
    expect(atKill).toBeLessThan(1000);

    await launch();
    await waitFor(async () => (await pendingCount(ids)) === 0 && true, {
      what: "every row DELIVERED",
      timeoutMs: 90_000,
      intervalMs: 250,
    });
    const received = new Set(receiver.on("/crash").map((r) => Number(r.headers["webhook-id"])));
    expect([...received].sort((a, b) => a - b)).toEqual(ids);
  }, 150_000);

  it("two workers share a burst and deliver each notification exactly once", async () => {
    for (const w of workers) await stopWorkerProcess(w);
    // One job at a time each, so that neither can take the whole burst alone; the default lease
    // (normal operation: the short one above is for taking over from a dead worker quickly).
    const normal = { DELIVERY_CONCURRENCY: "1", DELIVERY_LEASE_SECONDS: "120" };
    await Promise.all([launch(normal), launch(normal)]);
    receiver.route("/pair", () => ({ status: 200, delayMs: 30 }));
    const ids = await burst("/pair", 1000, 100);
    await waitFor(async () => (await pendingCount(ids)) === 0 && true, {
      what: "every row DELIVERED",
      timeoutMs: 90_000,
      intervalMs: 250,
    });
    const seen = receiver.on("/pair").map((r) => Number(r.headers["webhook-id"]));
    expect(seen.length).toBe(1000);
    expect(new Set(seen).size).toBe(1000);
    const byWorker = await db.sql<
      { worker_id: string; n: string }[]
    >`select worker_id, count(*) as n from delivery_attempts where notification_id = any(${`{${ids.join(",")}}`}::bigint[]) group by worker_id`;
    expect(byWorker.length).toBe(2);
  }, 150_000);

  it("a worker killed (SIGKILL) beside a live one: the live worker takes over the dead one's leases once they run out, nothing lost", async () => {
    for (const w of workers) await stopWorkerProcess(w);
    // Two batches in hand at most each (a batch is up to 100 entries): neither can lease the whole
    // burst of 600 while the other is still starting, so the doomed one gets its share, whichever of
    // the two the scheduler starts first.
    const few = { DELIVERY_CONCURRENCY: "2" };
    const [doomed, survivor] = await Promise.all([launch(few), launch(few)]);
    receiver.route("/takeover", () => ({ status: 200, delayMs: 50 }));
    const ids = await burst("/takeover", 600, 100);
    // Killed while it holds leases: once the burst is under way, and only at a moment the doomed
    // worker has a batch claimed (two workers share the burst, but which claims when is the
    // scheduler's choice, above all on the embedded database's one backend).
    const leasedBy = async (pid: number) =>
      Number(
        (
          await db.sql<
            { n: string }[]
          >`select count(*) as n from notification_deliveries where status = 'PENDING' and lease_owner like ${`%:${pid}:%`}`
        )[0]!.n,
      );
    await waitFor(async () => receiver.on("/takeover").length >= 100 && true, { what: "the burst under way" });
    await waitFor(async () => (await leasedBy(doomed!.pid)) > 0, {
      what: "the doomed worker holding leases",
      intervalMs: 20,
    });
    process.kill(doomed!.pid, "SIGKILL");
    await new Promise<void>((resolve) =>
      doomed!.child.exitCode !== null || doomed!.child.signalCode !== null
        ? resolve()
        : doomed!.child.once("exit", () => resolve()),
    );
    // What the dead worker held: no one gives it back, no one restarts it.
    const held = (
      await db.sql<
        { id: string }[]
      >`select id from notification_deliveries where status = 'PENDING' and lease_owner like ${`%:${doomed!.pid}:%`}`
    ).map((r) => Number(r.id));
    expect(held.length).toBeGreaterThan(0);

    await waitFor(async () => (await pendingCount(ids)) === 0 && true, {
      what: "every row DELIVERED",
      timeoutMs: 90_000,
      intervalMs: 250,
    });
    const received = new Set(receiver.on("/takeover").map((r) => Number(r.headers["webhook-id"])));
    expect([...received].sort((a, b) => a - b)).toEqual(ids);
    const takenOver = await db.sql<
      { worker_id: string }[]
    >`select distinct worker_id from delivery_attempts where notification_delivery_id = any(${`{${held.join(",")}}`}::bigint[]) and outcome = 'DELIVERED'`;
    expect(takenOver.map((r) => r.worker_id.split(":")[1])).toEqual([String(survivor!.pid)]);
  }, 150_000);
});
