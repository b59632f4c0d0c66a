import { gatewayOptions, startGateway } from "@/server/devices/gateway";
import { env } from "@/server/platform/env";
import { setProcessPhase } from "@/server/platform/fleet/process-state";
import { logger } from "@/server/platform/log";
import { prepareDatabase } from "./lib/database";

// `npm run gateway`: the device gateway alone (docs/devices.md#the-gateway), as many processes as
// a host needs behind a TCP load balancer, each on the ports DEVICE_HOST, DEVICE_PORT_OFFSET say (run
// `npm start` with DEVICE_GATEWAY=off to keep it out of the service). With the embedded database, a
// running `npm start` must serve it, or this process starts it. SIGTERM drains: no new connections,
// what each connection has sent is stored and acknowledged, then the process exits 0.

async function main() {
  const config = env();
  const database = await prepareDatabase();
  // In this process DEVICE_GATEWAY=off would leave nothing to do: the gateway always runs here.
  const gateway = await startGateway(gatewayOptions(config));
  // For the person who started it (and the tests that wait for it): on stdout, whatever LOG_LEVEL.
  const ports = gateway.listening.map((l) => `${l.environment} ${l.kind} ${l.port}`).join(", ");
  console.log(`Wayline device gateway running (pid ${process.pid}): ${ports}`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    setProcessPhase("draining");
    logger.info({ signal }, `${signal}: draining the device gateway`);
    const inTime = await gateway.drain(config.DRAIN_TIMEOUT_SECONDS * 1000);
    if (!inTime) logger.info({ seconds: config.DRAIN_TIMEOUT_SECONDS }, "drain timed out: device connections cut");
    await database.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((error: unknown) => {
  logger.fatal({ err: error }, "the device gateway could not start");
  process.exit(1);
});
