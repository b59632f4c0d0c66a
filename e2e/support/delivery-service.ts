import path from "node:path";
import { freshDatabase } from "../../test/helpers/fresh-database";
import { startHttpsReceiver, type HttpsReceiver, type ReceivedRequest } from "../../test/helpers/https-receiver";
import { startApp } from "../../test/helpers/processes";

// The specs that follow webhooks (console-journey, console-health) need what the run's main
// service lacks on purpose: a delivery worker (WORKER=on; the main one shows deliveries that wait).
// The global setup starts one such service for the whole run, beside the main one, on a database
// of its own (a fresh database on the PostgreSQL server of DATABASE_URL, else the embedded default
// in a fresh data dir); every spec that needs it brings its own real HTTPS receiver, with a
// certificate from that service's test CA, and its own partner and app, so they can run at once.

/** One webhook the receiver got, with the status it was answered with. */
export type Answered = { request: ReceivedRequest; notificationId: number; status: number };

type Receiver = {
  /** The URL a subscription posts to. */
  hookUrl: string;
  /** Every webhook so far, in arrival order. */
  answered: Answered[];
  /** The status every following webhook gets (200 at first). */
  answerWith(status: 200 | 500 | 410): void;
};

export type DeliveryService = { service: { baseUrl: string }; receiver: Receiver; stop(): Promise<void> };

const HOOK_PATH = "/wayline/hook";

function switchableReceiver(https: HttpsReceiver): Receiver {
  let status: 200 | 500 | 410 = 200;
  const answered: Answered[] = [];
  https.route(HOOK_PATH, (request) => {
    // The status is fixed when the request arrives, so the log says exactly what each webhook got.
    answered.push({ request, notificationId: Number(request.headers["webhook-id"]), status });
    return { status, body: status === 200 ? "{}" : JSON.stringify({ error: `receiver told to answer ${status}` }) };
  });
  return { hookUrl: `${https.url}${HOOK_PATH}`, answered, answerWith: (next) => void (status = next) };
}

/** The run's delivery service (global setup): started, healthy; stop() ends it and drops its database. */
export async function launchDeliveryService(): Promise<{ baseUrl: string; dataDir: string; stop(): Promise<void> }> {
  const database = process.env.DATABASE_URL ? await freshDatabase(process.env.DATABASE_URL, "e2e_delivery") : null;
  try {
    const service = await startApp({
      name: "e2e-delivery",
      databaseUrl: database?.url,
      extraEnv: {
        WORKER: "on",
        // Retries within milliseconds to seconds instead of minutes to hours (5 s → 5 ms, 5 min → 300 ms).
        DELIVERY_RETRY_SCALE: "0.001",
        // No test may reach the internet: map tiles point at a closed loopback port.
        MAP_TILE_URL: "http://127.0.0.1:9/tiles/{z}/{x}/{y}.png",
      },
    });
    return {
      baseUrl: service.baseUrl,
      dataDir: service.dataDir,
      stop: async () => {
        await service.stop();
        await database?.drop();
      },
    };
  } catch (error) {
    await database?.drop();
    throw error;
  }
}

/** The run's delivery service (its address from the global setup) and a receiver of this spec's own. */
export async function startDeliveryService(): Promise<DeliveryService> {
  const baseUrl = process.env.E2E_DELIVERY_URL;
  const dataDir = process.env.E2E_DELIVERY_DATA_DIR;
  if (!baseUrl || !dataDir) throw new Error("the global setup started no delivery service (E2E_DELIVERY_URL)");
  const caDir = path.join(dataDir, "test-ca");
  const https = await startHttpsReceiver({
    ca: { dir: caDir, certFile: path.join(caDir, "ca.pem"), keyFile: path.join(caDir, "ca.key") },
  });
  return { service: { baseUrl }, receiver: switchableReceiver(https), stop: () => https.close() };
}
