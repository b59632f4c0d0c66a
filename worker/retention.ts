import { ensurePartitions } from "@/db/partitions";
import { logger } from "@/server/platform/log";
import { deleteOldDataPoints } from "@/server/telemetry/retention";
import { deleteOldDeliveryAttempts } from "@/server/delivery/attempt-retention";
import { deleteOldAccessCounts } from "@/server/access-log/retention";
import { forgetUnknownDevices } from "@/server/devices/ingest/contacts";

// The maintenance job in the background worker: once at start, then every hour, the time partitions of
// data_sets, data_points and delivery_attempts made for this month and the next 3 (db/partitions.ts), so a
// month's rows never land in the default partition; then the access log's hours older than
// ACCESS_LOG_RETENTION_DAYS (server/access-log/retention.ts), the device ids no vehicle names that the
// device gateway has not heard from for 7 days (server/devices/ingest/contacts.ts) and, when set, data points older than
// DATA_POINT_RETENTION_DAYS (server/telemetry/retention.ts) and delivery attempts older than
// DELIVERY_ATTEMPT_RETENTION_DAYS (server/delivery/attempt-retention.ts): whole months dropped, the rest in
// batches, with a short pause between batches so ingest and reads keep their share of the database.

const EVERY_MS = 3_600_000;
const PAUSE_MS = 50;

export function startRetention({
  dataPointDays,
  deliveryAttemptDays,
  accessLogDays,
}: {
  dataPointDays: number | undefined;
  deliveryAttemptDays: number | undefined;
  accessLogDays: number;
}): { stop(): Promise<void> } {
  let stopping = false;
  let running: Promise<unknown> = Promise.resolve();
  const pause = () =>
    stopping ? Promise.reject(new Error("stopping")) : new Promise<void>((resolve) => setTimeout(resolve, PAUSE_MS));
  const run = () => {
    running = ensurePartitions()
      .then((made) => {
        if (made > 0) logger.info({ made }, "time partitions made ahead");
      })
      .catch((error: unknown) => {
        if (!stopping) logger.error({ err: error }, "making time partitions failed");
      })
      .then(() =>
        Promise.all([
          dataPointDays ? deleteOldDataPoints({ days: dataPointDays, pause }) : null,
          deliveryAttemptDays ? deleteOldDeliveryAttempts({ days: deliveryAttemptDays, pause }) : null,
          deleteOldAccessCounts({ days: accessLogDays }),
          forgetUnknownDevices(),
        ]),
      )
      .catch((error: unknown) => {
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
