import type { Sql } from "@/db/fragments";
import type { DeviceCaller } from "@/server/api-auth/principal";
import type { DataSetInput } from "../schemas";
import { planWrite } from "./plan";
import { readForIngest } from "./read";
import { writeIngest, type IngestWrite } from "./write";

// The device gateway's way in (server/devices/ingest/): the data sets of several vehicles, each
// read, planned and written as a post for it is (index.ts: duplicates, trips, state, subscriptions,
// notifications and their delivery, the location pause), inside the caller's transaction, which
// already holds the vehicles' row locks, taken in id order and each newer than its row's last
// writer (as read.ts lockVehicle checks). Under those locks nothing else writes the vehicles, so no
// version check can fail and the writes of all of them go as one statement; the caller commits
// them with whatever else it writes (what the gateway saw of each device), and only then
// acknowledges the device. Nothing is read back: a device is told a count, never its data.

type LockedIngest = { vehicleId: number; accountId: number; sets: DataSetInput[] };

/** Per vehicle: the data sets new to it (their timestamps) and how many it already had. */
type LockedOutcome = { vehicleId: number; fresh: Date[]; duplicates: number };

/** What the writes stored, for the metrics the caller records once the transaction has committed. */
export type LockedCounts = { sets: number; points: number; notifications: number };

export async function ingestLocked(
  tx: Sql,
  caller: DeviceCaller,
  items: LockedIngest[],
): Promise<{ outcomes: LockedOutcome[]; counts: LockedCounts }> {
  const outcomes: LockedOutcome[] = [];
  const writes: IngestWrite[] = [];
  for (const item of items) {
    const sets = item.sets
      .map((set, i) => ({ set, i }))
      .sort((a, b) => a.set.timestamp.getTime() - b.set.timestamp.getTime() || a.i - b.i)
      .map((e) => e.set);
    const read = await readForIngest(tx, {
      scope: { environment: caller.environment, accountId: item.accountId },
      ref: String(item.vehicleId),
      timestamps: sets.map((s) => s.timestamp.toISOString()),
    });
    if (read?.vehicle.id !== item.vehicleId) throw new Error(`vehicle ${item.vehicleId} was not found under its lock`);
    const plan = planWrite(read, sets, { environment: caller.environment });
    if (plan.write) writes.push(plan.write);
    outcomes.push({
      vehicleId: item.vehicleId,
      fresh: plan.fresh.map((s) => s.timestamp),
      duplicates: plan.duplicateIds.length,
    });
  }
  // A write that claims a ONETIME subscription goes in a statement of its own (ingest-queries.ts
  // notificationWrites: one statement never carries two vehicles' claims); the rest go together.
  const claims = (w: IngestWrite) => w.events?.notifications.some((n) => n.onetime) ?? false;
  const statements = [writes.filter((w) => !claims(w)), ...writes.filter(claims).map((w) => [w])].filter(
    (group) => group.length > 0,
  );
  for (const group of statements) {
    const written = await writeIngest(tx, group);
    if (written.some((w) => w === null)) throw new Error("a vehicle changed under its own row lock");
  }
  const counts: LockedCounts = { sets: 0, points: 0, notifications: 0 };
  for (const w of writes) {
    counts.sets += w.sets.length;
    counts.points += w.points.length;
    counts.notifications += w.events?.notifications.length ?? 0;
  }
  return { outcomes, counts };
}
