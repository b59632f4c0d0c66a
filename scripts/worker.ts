import { env } from "@/server/env";
import { logInfo } from "@/server/log";
import { startWorker } from "@/worker/index";
import { prepareDatabase } from "./lib/database";

// `npm run worker`: the background work alone, delivery and the simulator loop (run `npm start`
// with WORKER=off SIMULATOR=0 to keep them out of the web process). With the embedded database, a running `npm start` must serve it, or this
// process starts it.

async function main() {
  const config = env();
  const database = await prepareDatabase();
  // In this process WORKER=off would leave nothing to do: delivery always runs here.
  const worker = await startWorker({ delivery: true, simulator: config.simulator });
  console.log(`Wayline worker running (pid ${process.pid})`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping the worker`);
    // The jobs in hand finish and the leases go back (server/delivery/queue.ts), within the drain
    // time; past it the process exits anyway and its leases run out on their own.
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, config.DRAIN_TIMEOUT_SECONDS * 1000)));
    await Promise.race([worker.stop(), late.then(() => logInfo("drain: stopped waiting for the worker"))]);
    clearTimeout(timer);
    await database.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
