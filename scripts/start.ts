import cluster, { type Worker } from "node:cluster";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { closeReplica } from "@/db/replica";
import { closeDb } from "@/db/client";
import { DEMO, seedDemo } from "@/server/surfaces/demo/seed";
import { sessionSecret } from "@/server/platform/sessions/session-secret";
import { vapidKeys } from "@/server/alerts/push/vapid";
import { env, type Env } from "@/server/platform/env";
import { logger } from "@/server/platform/log";
import { answerClusterCollections, serveClusterMetrics } from "@/server/platform/metrics/cluster";
import { metrics } from "@/server/platform/metrics/registry";
import { startWorker } from "@/worker/index";
import { gatewayOptions, startGateway, type Gateway } from "@/server/devices/gateway";
import { flushAccessLog } from "@/server/access-log/flush";
import { buildIfNeeded } from "./lib/build";
import { prepareDatabase } from "./lib/database";
import { drainMs, serveHttp } from "./lib/serve-http";
import { onStopSignal } from "./lib/stop-signal";

// `npm start`: the whole service. Database (embedded when DATABASE_URL is unset), migrations,
// demo data and a production build when needed, once; then Next.js on HOST:PORT from
// WEB_CONCURRENCY processes (default: one per core on PostgreSQL, one on the embedded database;
// see docs/operations.md), and the notification delivery worker, the simulator's real-time loop
// and the device gateway in exactly one process (unless WORKER=off / SIMULATOR=0 /
// DEVICE_GATEWAY=off: then `npm run worker` and `npm run gateway` do them).
//
// With one process everything runs here, as it always did. With several, this process is the
// node:cluster primary: it prepares the database, runs the background work, forks the HTTP
// processes (which share the listening socket), replaces one that dies, and sums their metrics.
// SIGTERM drains: every process stops accepting connections, finishes its requests (at most
// DRAIN_TIMEOUT_SECONDS), the worker gives back its leases, the gateway acknowledges what its
// devices sent, and the process exits 0.

// Next.js would otherwise report anonymous telemetry over the network.
process.env.NEXT_TELEMETRY_DISABLED = "1";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dev = process.argv.includes("--dev");

async function main() {
  const config = env();
  if (cluster.isWorker) return runHttpProcess(config);
  const database = await prepareDatabase();
  if (config.seedDemo) await seedDemo();
  // Generated on first start (no configuration needed), before anyone can sign in or subscribe.
  sessionSecret();
  vapidKeys();
  if (!dev) await buildIfNeeded(root);
  const processes = dev ? 1 : (config.WEB_CONCURRENCY ?? (config.embedded ? 1 : os.availableParallelism()));
  const ready = (port: number) => {
    const shownHost = config.HOST === "127.0.0.1" || config.HOST === "0.0.0.0" ? "localhost" : config.HOST;
    const base = `http://${shownHost}:${port}`;
    const where = database.embeddedUrl ? `embedded, ${config.dataDir}` : "DATABASE_URL";
    console.log(
      `\nWayline is running at ${base}  (database: ${where}; ${processes === 1 ? "1 process" : `${processes} HTTP processes`})`,
    );
    if (config.seedDemo) printDemo(base);
  };
  // The device gateway's ports, for whoever sets up a device (docs/devices.md#ports).
  const devicesReady = (devices: Gateway | null) => {
    if (!devices) return;
    const host = gatewayOptions(config).host;
    const ports = (environment: string) =>
      devices.listening
        .filter((l) => l.environment === environment)
        .map((l) => `${l.kind} ${l.port}`)
        .join(", ");
    console.log(`Device gateway on ${host}: production ${ports("production")}; sandbox ${ports("sandbox")}`);
  };

  if (processes === 1) {
    const web = await serveHttp(config, { dir: root, dev });
    // The background work (notification delivery, the simulator's real-time loop) runs here too,
    // each part unless switched off (WORKER=off, SIMULATOR=0); `npm run worker` runs it alone.
    const worker = await startWorker({ delivery: config.workerEnabled, simulator: config.simulator });
    const devices = await startDevices(config);
    metrics().processes.set({ role: "http" }, 1);
    metrics().processes.set({ role: "worker" }, config.workerEnabled || config.simulator ? 1 : 0);
    ready(web.port);
    devicesReady(devices);
    onStopSignal(async () => {
      await Promise.all([web.drain(), worker.stop({ withinMs: drainMs(config) }), devices?.drain(drainMs(config))]);
      await flushAccessLogOnStop();
      await database.stop();
    });
    return;
  }

  // The primary: background work, the device gateway and metrics here, HTTP in the forked processes.
  serveClusterMetrics();
  const worker = await startWorker({ delivery: config.workerEnabled, simulator: config.simulator });
  const devices = await startDevices(config);
  metrics().processes.set({ role: "worker" }, config.workerEnabled || config.simulator ? 1 : 0);
  let stopping = false;
  let listening = 0;
  const fork = () => cluster.fork();
  cluster.on("listening", (_worker, address) => {
    if (++listening !== processes) return;
    ready(address.port);
    devicesReady(devices);
  });
  cluster.on("exit", (child: Worker, code, signal) => {
    if (stopping) return;
    if (listening < processes) {
      // Before the fleet ever served, a process that ends is the start failing (a port taken, a
      // build missing), and each one forked again would fail the same way, once a second, for
      // ever. The start ends instead, as one process's does; the child logged its reason.
      logger.fatal({ childPid: child.process.pid, code, signal }, "the service could not start: an HTTP process ended");
      stopping = true;
      void stopFleet().finally(() => process.exit(1));
      return;
    }
    // A crashed HTTP process is replaced (its requests are lost; the others go on serving).
    logger.error({ childPid: child.process.pid, code, signal }, "HTTP process exited; starting another");
    setTimeout(fork, 1000).unref();
  });
  for (let i = 0; i < processes; i++) fork();
  onStopSignal(async () => {
    stopping = true;
    await stopFleet();
  });

  async function stopFleet() {
    const children = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    const exited = Promise.all(
      children.map((w) => new Promise<void>((resolve) => (w.isDead() ? resolve() : w.once("exit", () => resolve())))),
    );
    for (const w of children) w.process.kill("SIGTERM");
    // Each child bounds its own drain; past that (and a margin) it is killed.
    const kill = setTimeout(
      () => children.forEach((w) => w.isDead() || w.process.kill("SIGKILL")),
      drainMs(config) + 5000,
    );
    await Promise.all([exited, worker.stop({ withinMs: drainMs(config) }), devices?.drain(drainMs(config))]);
    clearTimeout(kill);
    await flushAccessLogOnStop();
    await database.stop();
  }
}

/** A forked HTTP process: Next.js only, on the database the primary prepared. */
async function runHttpProcess(config: Env) {
  answerClusterCollections();
  const web = await serveHttp(config, { dir: root, dev });
  metrics().processes.set({ role: "http" }, 1);
  onStopSignal(async () => {
    await web.drain();
    await flushAccessLogOnStop();
    await Promise.all([closeDb(), closeReplica()]);
  });
  // The primary gone (killed): nothing will replace or stop this process, so it stops itself.
  process.on("disconnect", () => process.kill(process.pid, "SIGTERM"));
}

/** The device gateway in this process, unless DEVICE_GATEWAY=off (then `npm run gateway` runs it). */
async function startDevices(config: Env): Promise<Gateway | null> {
  return config.deviceGateway ? startGateway(gatewayOptions(config)) : null;
}

/** The access log's counts still in memory, written once the requests and deliveries are done. */
async function flushAccessLogOnStop() {
  await flushAccessLog().catch((error: unknown) => logger.error({ err: error }, "access log: the last flush failed"));
}

function printDemo(base: string) {
  const { clientId, clientSecret } = DEMO.sandbox;
  const tokenRequest = `curl -s -u ${clientId}:${clientSecret} -d grant_type=client_credentials ${base}/sandbox/oauth/token`;
  const vehicleList = `curl -s -H "Authorization: Bearer $TOKEN" ${base}/sandbox/api/vehicle/`;
  // CI's first stage follows these lines as a newcomer would (the sign-in link, the curl line):
  // keep each on one line.
  console.log(`
Driver site: sign in at ${base}/login?environment=sandbox as ${DEMO.driver.username} / ${DEMO.driver.password}
Partner console: ${base}/console (sign in as ${DEMO.partner.email} / ${DEMO.partner.password}); API reference: ${base}/docs
Demo app (sandbox): client id ${clientId}, client secret ${clientSecret}

Try the authorization page (sign in as the demo driver, or register a new one):
  ${base}/sandbox/OAuth/authorize?client_id=${clientId}&redirect_uri=${encodeURIComponent(DEMO.app.redirectUris[0])}&response_type=code&state=demo

Get a token and list the demo vehicles (the family car drives a loop in Columbus):
  TOKEN=$(${tokenRequest} | sed -E 's/.*"access_token":"([^"]+)".*/\\1/') && ${vehicleList}
Then the notifications its subscriptions made (ignition, downtown geofence, position each minute):
  curl -s -H "Authorization: Bearer $TOKEN" ${base}/sandbox/api/vehicle/${DEMO.deviceSerial}/eventNotification/
`);
}

main().catch((error: unknown) => {
  logger.fatal({ err: error }, "the service could not start");
  process.exit(1);
});
