import {
  createSubscription,
  deliveryDatabase,
  insertNotifications,
  seedApp,
  startWorkerProcess,
  stopWorkerProcess,
  type DeliveryDb,
  type WorkerProcess,
} from "./delivery-fixture";
import { startHttpsReceiver, type HttpsReceiver } from "./https-receiver";

// HTTP_POST deliveries end to end, as delivery-http.test.ts and delivery-oauth2.test.ts run them:
// PENDING rows written straight into a database of the file's own → a worker process → a real
// HTTPS receiver on loopback whose certificate comes from the test's CA. With the reads the tests
// check the outcome by.

type Deliveries = Parameters<typeof createSubscription>[1]["deliveries"];
type Attempt = {
  outcome: string;
  http_status: number | null;
  target: string;
  error: string | null;
  signed_content: string | null;
  signature: string | null;
  latency_ms: number;
};
type DeliveryRow = {
  active: boolean;
  deactivation_reason: string | null;
  post_url: string;
  oauth2: Record<string, string> | null;
};

export type HttpDelivery = Awaited<ReturnType<typeof startHttpDelivery>>;

export async function startHttpDelivery(name: string) {
  const db: DeliveryDb = await deliveryDatabase(name);
  let worker: WorkerProcess | undefined;
  let receiver: HttpsReceiver | undefined;
  try {
    worker = startWorkerProcess(db.workerEnv());
    await worker.ready;
    receiver = await startHttpsReceiver({ ca: db.ca });
    const app = await seedApp(db);
    const started = { worker, receiver };
    return {
      db,
      ...started,
      app,
      subscribe: (deliveries: Deliveries) =>
        createSubscription(db.sql, { appId: app.appId, clientId: app.clientId, deliveries }),
      notify: (sub: { subscriptionId: number; deliveryIds: number[] }, count = 1) =>
        insertNotifications(db.sql, {
          appId: app.appId,
          clientId: app.clientId,
          subscriptionId: sub.subscriptionId,
          deliveryIds: sub.deliveryIds,
          count,
        }),
      attemptsOf: (notificationId: number) =>
        db.sql<Attempt[]>`
          select outcome, http_status, target, error, signed_content, signature, latency_ms
            from delivery_attempts where notification_id = ${notificationId} order by id`,
      rowStatus: async (notificationId: number) =>
        (
          await db.sql<
            { status: string }[]
          >`select status from notification_deliveries where notification_id = ${notificationId}`
        )[0]?.status,
      deliveryRow: async (id: number) =>
        (
          await db.sql<
            DeliveryRow[]
          >`select active, deactivation_reason, post_url, oauth2 from subscription_deliveries where id = ${id}`
        )[0]!,
      stop: () => stopAll(db, worker, receiver),
    };
  } catch (error) {
    await stopAll(db, worker, receiver);
    throw error;
  }
}

async function stopAll(db: DeliveryDb, worker?: WorkerProcess, receiver?: HttpsReceiver) {
  if (process.env.DEBUG_WORKER) console.error(worker?.output());
  if (worker) await stopWorkerProcess(worker);
  await receiver?.close();
  await db.close();
}
