import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import next from "next";
import { DEMO, seedDemo } from "@/db/seed";
import { sessionSecret } from "@/server/auth/session-secret";
import { env } from "@/server/env";
import { stampClientAddress } from "@/server/http/client-address";
import { answerBeforeNext, clientErrorAnswer } from "@/server/http/before-next";
import { startWorker } from "@/worker/index";
import { buildIfNeeded } from "./lib/build";
import { prepareDatabase } from "./lib/database";

// `npm start`: the whole service in one process. Database (embedded when DATABASE_URL is unset),
// migrations, demo data, a production build when needed, then Next.js on HOST:PORT, and the
// notification delivery worker (unless WORKER=off: then `npm run worker` delivers).

// Next.js would otherwise report anonymous telemetry over the network.
process.env.NEXT_TELEMETRY_DISABLED = "1";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dev = process.argv.includes("--dev");

async function main() {
  const config = env();
  const database = await prepareDatabase();
  if (config.seedDemo) await seedDemo();
  // Generated on first start (no configuration needed), before anyone can sign in.
  sessionSecret();
  if (!dev) buildIfNeeded(root);

  const app = next({ dev, dir: root, hostname: config.HOST, port: config.PORT });
  await app.prepare();
  const handle = app.getRequestHandler();
  const server = http.createServer((req, res) => {
    stampClientAddress(req);
    if (answerBeforeNext(req, res)) return;
    void handle(req, res);
  });
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    const answer = socket.writable ? clientErrorAnswer(error) : null;
    if (answer) socket.end(answer);
    else socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(config.PORT, config.HOST, resolve));
  // The background work (notification delivery, the simulator's real-time loop) runs here too,
  // each part unless switched off (WORKER=off, SIMULATOR=0); `npm run worker` runs it alone.
  const worker = await startWorker({ delivery: config.workerEnabled, simulator: config.simulator });

  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.PORT;
  const shownHost = config.HOST === "127.0.0.1" || config.HOST === "0.0.0.0" ? "localhost" : config.HOST;
  const base = `http://${shownHost}:${port}`;
  console.log(`\nWayline is running at ${base}  (database: ${database.embeddedUrl ? `embedded, ${config.dataDir}` : "DATABASE_URL"})`);
  if (config.seedDemo) printDemo(base);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await app.close?.();
    await worker.stop();
    await database.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

function printDemo(base: string) {
  const { clientId, clientSecret } = DEMO.sandbox;
  // CI's first stage follows these lines as a newcomer would (the sign-in link, the curl line):
  // keep each on one line.
  console.log(`
Driver site: sign in at ${base}/login?environment=sandbox as ${DEMO.driver.username} / ${DEMO.driver.password}
Partner console: ${base}/console (sign in as ${DEMO.partner.email} / ${DEMO.partner.password}); API reference: ${base}/docs
Demo app (sandbox): client id ${clientId}, client secret ${clientSecret}

Try the authorization page (sign in as the demo driver, or register a new one):
  ${base}/sandbox/OAuth/authorize?client_id=${clientId}&redirect_uri=${encodeURIComponent(DEMO.app.redirectUris[0])}&response_type=code&state=demo

Get a token and list the demo vehicles (the family car drives a loop in Columbus):
  TOKEN=$(curl -s -u ${clientId}:${clientSecret} -d grant_type=client_credentials ${base}/sandbox/oauth/token | sed -E 's/.*"access_token":"([^"]+)".*/\\1/') && curl -s -H "Authorization: Bearer $TOKEN" ${base}/sandbox/api/vehicle/
Then the notifications its subscriptions made (ignition, downtown geofence, position each minute):
  curl -s -H "Authorization: Bearer $TOKEN" ${base}/sandbox/api/vehicle/${DEMO.deviceSerial}/eventNotification/
`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
