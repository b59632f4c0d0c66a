import { closeDb } from "@/db/client";
import { env } from "@/server/platform/env";
import { serveHttp } from "../../scripts/lib/serve-http";
import { onStopSignal } from "../../scripts/lib/stop-signal";

// The baseline app's process (bench/lib/baseline.ts starts it beside the service): the service's
// HTTP front (scripts/lib/serve-http.ts) around this folder's Next.js app instead of the product,
// with the service's environment (its database, pool and timeouts). One process, no background
// work, no migrations: the service beside it has prepared the database. PORT=0 takes a free port,
// printed once it listens.
const config = env();
const web = await serveHttp(config, { dir: import.meta.dirname });
console.log(`Baseline app running at http://${config.HOST}:${web.port}`);
onStopSignal(async () => {
  await web.drain();
  await closeDb();
});
