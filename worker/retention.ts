import { logger } from "@/server/platform/log";
import { deleteOldDataPoints } from "@/server/telemetry/retention";
import { deleteOldAccessCounts } from "@/server/access-log/retention";

// The data-retention job in the background worker: once at start, then every hour, the access
// log's hours older than ACCESS_LOG_RETENTION_DAYS (server/access-log/retention.ts) and, when
// DATA_POINT_RETENTION_DAYS is set, data points older than that, in batches (server/telemetry/retention.ts),
// with a short pause between batches so ingest and reads keep their share of the database.

const EVERY_MS = 3_600_000;
const PAUSE_MS = 50;

export function startRetention({
  dataPointDays,
  accessLogDays,
}: {
  dataPointDays: number | undefined;
  accessLogDays: number;
}): { stop(): Promise<void> } {
  let stopping = false;
  let running: Promise<unknown> = Promise.resolve();
  const pause = () =>
    stopping ? Promise.reject(new Error("stopping")) : new Promise<void>((resolve) => setTimeout(resolve, PAUSE_MS));
  const run = () => {
    running = Promise.all([
      dataPointDays ? deleteOldDataPoints({ days: dataPointDays, pause }) : null,
      deleteOldAccessCounts({ days: accessLogDays }),
    ]).catch((error: unknown) => {
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
