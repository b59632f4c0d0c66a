import { lt } from "drizzle-orm";
import { db } from "@/db/client";
import { accessCounts } from "@/db/schema";

// The access log keeps ACCESS_LOG_RETENTION_DAYS (at least the 90 days the driver site shows):
// older hours are deleted by the worker's hourly job (worker/retention.ts). Hourly counters are
// small (one row per app, account, category and hour with any access), so one statement does.
export async function deleteOldAccessCounts({ days, now = new Date() }: { days: number; now?: Date }) {
  const cutoff = new Date(now.getTime() - days * 86_400_000);
  const deleted = await db()
    .delete(accessCounts)
    .where(lt(accessCounts.hour, cutoff))
    .returning({ hour: accessCounts.hour });
  return deleted.length;
}
