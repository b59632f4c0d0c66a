import { env } from "@/server/env";
import { startWorker } from "@/worker/index";
import { prepareDatabase } from "./lib/database";

// `npm run worker`: the delivery worker alone (run `npm start` with WORKER=off to keep it out of
// the web process). With the embedded database, a running `npm start` must serve it, or this
// process starts it.

async function main() {
  env();
  const database = await prepareDatabase();
  const worker = await startWorker();
  console.log(`Wayline worker running (pid ${process.pid})`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping the worker`);
    await worker.stop();
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
