import { logger } from "@/server/platform/log";
import { deleteOldDataPoints } from "@/server/telemetry/retention";

// The data-retention job in the background worker: once at start, then every hour, data points
// older than DATA_POINT_RETENTION_DAYS are deleted in batches (server/telemetry/retention.ts),
// with a short pause between batches so ingest and reads keep their share of the database.

const EVERY_MS = 3_600_000;
const PAUSE_MS = 50;

export function startRetention(days: number): { stop(): Promise<void> } {
  let stopping = false;
  let running: Promise<unknown> = Promise.resolve();
  const pause = () =>
    stopping ? Promise.reject(new Error("stopping")) : new Promise<void>((resolve) => setTimeout(resolve, PAUSE_MS));
  const run = () => {
    running = deleteOldDataPoints({ days, pause }).catch((error: unknown) => {
      if (!stopping) logger.error({ err: error }, "data retention job failed");
    });
  };
  run();
  const timer = setInterval(run, EVERY_MS);
  timer.unref();
  return {
    async stop() {
      stopping = true;
      clearInterval(timer);
      await running;
    },
  };
}
