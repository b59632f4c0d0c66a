import { env } from "@/server/platform/env";
import { logger } from "@/server/platform/log";
import { startWorker } from "@/worker/index";
import { flushAccessLog } from "@/server/access-log/flush";
import { prepareDatabase } from "./lib/database";

// `npm run worker`: the background work alone, delivery and the simulator loop (run `npm start`
// with WORKER=off SIMULATOR=0 to keep them out of the web process). With the embedded database, a running `npm start` must serve it, or this
// process starts it.

async function main() {
  const config = env();
  const database = await prepareDatabase();
  // In this process WORKER=off would leave nothing to do: delivery always runs here.
  const worker = await startWorker({ delivery: true, simulator: config.simulator });
  // For the person who started it (and the tests that wait for it): on stdout, whatever LOG_LEVEL.
  console.log(`Wayline worker running (pid ${process.pid})`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, `${signal}: stopping the worker`);
    // The jobs in hand finish within the drain time; past it, what they hold is given back for
    // another worker to send at once (worker/index.ts).
    await worker.stop({ withinMs: config.DRAIN_TIMEOUT_SECONDS * 1000 });
    // The access log's counts of the deliveries made, still in memory.
    await flushAccessLog().catch((error: unknown) => logger.error({ err: error }, "access log: the last flush failed"));
    await database.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((error: unknown) => {
  logger.fatal({ err: error }, "the worker could not start");
  process.exit(1);
});
