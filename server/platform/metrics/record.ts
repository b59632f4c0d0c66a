import type { Environment } from "@/db/schema";
import type { AttemptRecord, RowResult } from "@/server/delivery/attempts";
import { metrics } from "./registry";

// What the domain code counts, in one call each, after the work is committed.

export function recordIngest(
  environment: Environment,
  written: { sets: number; points: number; notifications: number },
): void {
  const m = metrics();
  m.dataSetsIngested.inc({ environment }, written.sets);
  if (written.points > 0) m.dataPointsIngested.inc({ environment }, written.points);
  if (written.notifications > 0) m.notificationsMade.inc({ environment }, written.notifications);
}

export function recordDeliveries(attempts: AttemptRecord[], results: RowResult[]): void {
  const m = metrics();
  for (const a of attempts) {
    const outcome = a.outcome.toLowerCase();
    m.deliveryAttempts.inc({ outcome });
    m.deliveryDuration.observe({ outcome }, a.latencyMs / 1000);
  }
  for (const r of results) m.deliveries.inc({ outcome: r.kind });
}
