import { env } from "@/server/platform/env";
import { ensurePartitions } from "@/db/partitions";
import { deleteOldDataPoints } from "@/server/telemetry/retention";
import { deleteOldDeliveryAttempts } from "@/server/delivery/attempt-retention";
import { logger } from "@/server/platform/log";
import { prepareDatabase } from "./lib/database";

// `npm run retention -- [--days N] [--attempt-days N] [--batch ROWS]`: what the worker's hourly job does
// (worker/retention.ts), once: the time partitions made ahead, then data points older than N days
// (--days, else DATA_POINT_RETENTION_DAYS) and delivery attempts older than --attempt-days (else
// DELIVERY_ATTEMPT_RETENTION_DAYS) deleted, whole months dropped and the rest in batches; prints what it
// did as one line of JSON. For a first clean-up or a cron job.

const option = (name: string): number | undefined => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : undefined;
};
const wholeNumber = (n: number | undefined, least: number) => n === undefined || (Number.isInteger(n) && n >= least);

async function main() {
  const days = option("--days") ?? env().DATA_POINT_RETENTION_DAYS;
  const attemptDays = option("--attempt-days") ?? env().DELIVERY_ATTEMPT_RETENTION_DAYS;
  const batch = option("--batch");
  if (!wholeNumber(batch, 1)) throw new Error("--batch takes a whole number of rows, at least 1.");
  if (!wholeNumber(days, 1)) throw new Error("--days takes a whole number of days, at least 1.");
  if (!wholeNumber(attemptDays, 8)) throw new Error("--attempt-days takes a whole number of days, at least 8.");
  if (days === undefined && attemptDays === undefined)
    throw new Error(
      "Give --days N (a whole number of days, at least 1) or set DATA_POINT_RETENTION_DAYS, or give --attempt-days N or set DELIVERY_ATTEMPT_RETENTION_DAYS.",
    );
  const database = await prepareDatabase();
  try {
    const made = await ensurePartitions();
    const points = days === undefined ? null : { days, ...(await deleteOldDataPoints({ days, batch })) };
    const attempts =
      attemptDays === undefined
        ? null
        : { days: attemptDays, ...(await deleteOldDeliveryAttempts({ days: attemptDays, batch })) };
    console.log(JSON.stringify({ ...points, ...(attempts ? { attempts } : {}), partitionsMade: made }));
  } finally {
    await database.stop();
  }
}

main().catch((error: unknown) => {
  // The message is for the person at the terminal (a missing option, an invalid value); the
  // stack, for when it is a bug, is logged at LOG_LEVEL=debug.
  console.error(error instanceof Error ? error.message : error);
  logger.debug({ err: error }, "retention failed");
  process.exit(1);
});
