import { rawSql } from "@/db/client";
import type { Environment } from "@/db/schema";
import { ingestLocked, type LockedCounts } from "@/server/telemetry/ingest/locked";
import { env } from "@/server/platform/env";
import { recordIngest } from "@/server/platform/metrics/record";
import { recordStored, recordUnknown, type DeviceProtocol, type StoredContact } from "./contacts";
import { dataSetsOf } from "../data-sets";
import { ignitionStatuses } from "../ignition";
import type { DeviceRecord } from "../protocols/record";
import { lockTargets } from "./targets";

// One transaction for what several connections of one environment brought (queue.ts): the
// vehicles their device ids name, locked (targets.ts); each device's records, in time order, as
// data sets with the statuses its ignition or motion gives (ignition.ts); the data sets through
// ingest as an API post's (server/telemetry/ingest/locked.ts), a resent record (same vehicle and
// timestamp) found stored and not written again; and what the gateway keeps of each device
// (contacts.ts). Then the commit, and only then the answers: a submission is acknowledged only
// once its records are stored (docs/decisions/0137-device-records-acknowledged-after-commit.md).

export type Submission = {
  deviceId: string;
  protocol: DeviceProtocol;
  /** A frame's or request's records, decoded and checked (nothing of a refused frame comes here). */
  records: DeviceRecord[];
};

/** stored: every record is stored (now, or already before: a resend). unknown: no vehicle names the id. */
export type SubmissionOutcome = "stored" | "unknown";

/** Attempts at a transaction whose lock came out older than a vehicle's last writer (targets.ts). */
const ORDER_ATTEMPTS = 3;

export async function writeBatch(environment: Environment, submissions: Submission[]): Promise<SubmissionOutcome[]> {
  const deviceIds = [...new Set(submissions.map((s) => s.deviceId))];
  for (let attempt = 1; ; attempt++) {
    const done = await rawSql().begin(async (tx) => {
      const targets = await lockTargets(tx, environment, deviceIds);
      if (!targets) {
        if (attempt < ORDER_ATTEMPTS) return null;
        throw new Error("the vehicles' rows kept coming out newer than the batch's transaction");
      }
      const byDevice = new Map(targets.map((t) => [t.deviceId, t]));
      const planned = targets.map((target) => {
        const mine = submissions.filter((s) => s.deviceId === target.deviceId);
        const records = mine
          .flatMap((s) => s.records)
          .map((record, i) => ({ record, i }))
          .sort((a, b) => a.record.fixTime.getTime() - b.record.fixTime.getTime() || a.i - b.i)
          .map((e) => e.record);
        const { statuses, state } = ignitionStatuses(target.state, records);
        return { target, protocol: mine.at(-1)!.protocol, sets: dataSetsOf(records, statuses), state };
      });
      const { outcomes, counts } = await ingestLocked(
        tx,
        { via: "device", environment },
        planned.map((p) => ({ vehicleId: p.target.vehicleId, accountId: p.target.accountId, sets: p.sets })),
      );
      const stored: StoredContact[] = planned.map((p, i) => {
        const fresh = outcomes[i]!.fresh;
        return {
          deviceId: p.target.deviceId,
          protocol: p.protocol,
          fresh: fresh.length,
          newest: fresh.reduce<Date | null>((a, b) => (a && a > b ? a : b), null),
          ignition: p.state.ignition,
          motionAt: p.state.motionAt,
        };
      });
      await recordStored(tx, environment, stored, env().DEVICE_SILENT_MINUTES);
      const unknown = submissions.filter((s) => !byDevice.has(s.deviceId));
      await recordUnknown(tx, environment, unknown);
      return { counts, known: new Set(byDevice.keys()) };
    });
    if (!done) continue;
    recordCounts(environment, done.counts);
    return submissions.map((s) => (done.known.has(s.deviceId) ? "stored" : "unknown"));
  }
}

function recordCounts(environment: Environment, counts: LockedCounts): void {
  if (counts.sets > 0) recordIngest(environment, counts);
}
