import { env } from "@/server/platform/env";
import { deleteOldDataPoints } from "@/server/telemetry/retention";
import { logger } from "@/server/platform/log";
import { prepareDatabase } from "./lib/database";

// `npm run retention -- --days N [--batch ROWS]`: deletes data points older than N days once, in batches, and
// prints how many (the worker does the same hourly when DATA_POINT_RETENTION_DAYS is set; this is
// for a first clean-up or a cron job). Without --days, DATA_POINT_RETENTION_DAYS.

async function main() {
  const at = process.argv.indexOf("--days");
  const days = at >= 0 ? Number(process.argv[at + 1]) : env().DATA_POINT_RETENTION_DAYS;
  const batchAt = process.argv.indexOf("--batch");
  const batch = batchAt >= 0 ? Number(process.argv[batchAt + 1]) : undefined;
  if (batch !== undefined && !(Number.isInteger(batch) && batch >= 1))
    throw new Error("--batch takes a whole number of rows, at least 1.");
  if (!days || !Number.isInteger(days) || days < 1)
    throw new Error("Give --days N (a whole number of days, at least 1) or set DATA_POINT_RETENTION_DAYS.");
  const database = await prepareDatabase();
  try {
    const result = await deleteOldDataPoints({ days, batch });
    console.log(JSON.stringify({ days, ...result }));
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
