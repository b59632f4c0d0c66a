import path from "node:path";
import { freshDatabase } from "../../test/helpers/fresh-database";
import { startHttpsReceiver, type HttpsReceiver, type ReceivedRequest } from "../../test/helpers/https-receiver";
import { launchService, type RunningService } from "../../test/helpers/processes";

// The console journey needs what the global e2e service lacks on purpose: a delivery worker
// (WORKER=on) and a partner's HTTPS receiver. So the journey starts a service of its own, on a
// database of its own (a fresh database on the PostgreSQL server of DATABASE_URL, else the
// embedded default in a fresh data dir), and a real HTTPS receiver with a certificate from the
// service's test CA. Everything is stopped by its handle, the database dropped.

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

export type DeliveryService = { service: RunningService; receiver: Receiver; stop(): Promise<void> };

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

export async function startDeliveryService(): Promise<DeliveryService> {
  const database = process.env.DATABASE_URL ? await freshDatabase(process.env.DATABASE_URL, "console_journey") : null;
  let service: RunningService | undefined;
  let https: HttpsReceiver | undefined;
  const stop = async () => {
    await https?.close();
    await service?.stop();
    await database?.drop();
  };
  try {
    service = await launchService({
      name: "console-journey",
      databaseUrl: database?.url,
      extraEnv: {
        WORKER: "on",
        // Retries within milliseconds to seconds instead of minutes to hours (5 s → 5 ms, 5 min → 300 ms).
        DELIVERY_RETRY_SCALE: "0.001",
        // No test may reach the internet: map tiles point at a closed loopback port.
        MAP_TILE_URL: "http://127.0.0.1:9/tiles/{z}/{x}/{y}.png",
      },
    });
    const caDir = path.join(service.dataDir, "test-ca");
    https = await startHttpsReceiver({
      ca: { dir: caDir, certFile: path.join(caDir, "ca.pem"), keyFile: path.join(caDir, "ca.key") },
    });
    return { service, receiver: switchableReceiver(https), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
