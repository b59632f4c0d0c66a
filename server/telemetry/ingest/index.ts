import { rawSql } from "@/db/client";
import type { Sql } from "@/db/fragments";
import type { AccountScope } from "@/server/accounts/queries";
import { accountScope } from "@/server/accounts/service";
import { uniqueViolation } from "@/db/errors";
import { ApiError, notFound } from "@/common/http/errors";
import type { LocationPrecision } from "@/common/oauth/grant-scope";
import { grantFor } from "@/server/grants/grant-view";
import type { Principal } from "@/server/api-auth/principal";
import { readDataSets } from "../queries";
import type { DataSetInput, DataSetOut } from "../schemas";
import { answerOf, planWrite, readAfter } from "./plan";
import { lockVehicle, readForIngest, type IngestRead } from "./read";
import { recentRead, rememberRead } from "./recent-reads";
import { writeIngest, type Written } from "./write";
import { groupable, writeInGroup } from "./write-groups";
import { recordIngest } from "@/server/platform/metrics/record";

// POST /vehicle/{id}/dataSet/ (one data set, or a batch of up to 500) and the simulator's posts,
// for a principal the caller has already authenticated (withApi, like every route):
//
//   read   the vehicle, its state, open trip, data sets at the posted times and subscriptions:
//          one statement (read.ts), or what the last ingest for it left (recent-reads.ts);
//   plan   pure TypeScript (plan.ts): duplicates, trips (segmentation.ts), the new state,
//          subscription evaluation;
//   write  one statement (write.ts), alone or shared with other devices' posts (write-groups.ts),
//          that writes only if the vehicle row is still the version read. It also writes the
//          notifications and enqueues their delivery (pending-deliveries.ts).
//
// If another write for the vehicle came in between, nothing was written, and the whole ingest runs
// again inside a transaction holding the vehicle's row lock, so concurrent posts for one vehicle
// cannot interleave their trips, state or subscription edges. Duplicates (same vehicle and
// timestamp) are not written again but answered with the data set already stored, so a device
// may safely resend: stored data, shown as a read shows it (duplicateView).
export async function ingestDataSets(
  principal: Principal,
  vehicleRef: string,
  input: DataSetInput[],
): Promise<DataSetOut[]> {
  const sets = input
    .map((set, i) => ({ set, i }))
    .sort((a, b) => a.set.timestamp.getTime() - b.set.timestamp.getTime() || a.i - b.i)
    .map((e) => e.set);
  const request: IngestRequest = { principal, scope: accountScope(principal), ref: vehicleRef, sets };

  let outcome = (await ingestOnRecentRead(request)) ?? (await ingestOnce(request));
  if ("changed" in outcome) {
    const vehicleId = outcome.changed;
    outcome = await underVehicleLock(vehicleId, (tx) => ingestOnce({ ...request, ref: String(vehicleId) }, { tx }));
    if ("changed" in outcome) throw new Error("the vehicle changed under its own row lock");
  }
  rememberRead(request.scope, vehicleRef, outcome.after);

  const duplicates = outcome.duplicatesAt
    ? await readDataSets({ vehicleId: outcome.vehicleId, ids: outcome.duplicateIds, precision: outcome.duplicatesAt })
    : [];
  return [...outcome.fresh, ...duplicates].sort((a, b) => a.timestamp.localeCompare(b.timestamp) || a.id - b.id);
}

// The slow path's transaction, begun again while its id came out older than the vehicle's last
// writer's (read.ts, lockVehicle): rare, and a new transaction's id is newer than every committed one.
async function underVehicleLock(vehicleId: number, work: (tx: Sql) => Promise<Outcome>): Promise<Outcome> {
  for (let attempt = 0; ; attempt++) {
    const outcome = await rawSql().begin(async (tx) => {
      if (!(await lockVehicle(tx, vehicleId)) && attempt < 3) return null;
      return work(tx);
    });
    if (outcome) return outcome;
  }
}

type IngestRequest = { principal: Principal; scope: AccountScope; ref: string; sets: DataSetInput[] };
/**
 * after: the vehicle as the write left it, for the next post (recent-reads.ts). duplicatesAt: the
 * precision the duplicates are answered at, null when there are none. changed: the vehicle changed
 * since the read; nothing was written.
 */
type Outcome =
  | {
      vehicleId: number;
      fresh: DataSetOut[];
      duplicateIds: number[];
      duplicatesAt: LocationPrecision | null;
      after: IngestRead;
    }
  | { changed: number };

/**
 * The ingest on what the last one for this vehicle left, when every data set is newer than the
 * vehicle's newest then; null when there is none, or it no longer held (the entry is dropped, so
 * a lost vehicle does not pay for a write that cannot happen on every post).
 */
async function ingestOnRecentRead(request: IngestRequest): Promise<Outcome | null> {
  const recent = recentRead(request.scope, request.ref);
  if (!recent) return null;
  const newest = recent.state.lastDataAt?.getTime() ?? -Infinity;
  let outcome: Outcome | null = null;
  if (request.sets[0]!.timestamp.getTime() > newest) {
    try {
      outcome = await ingestOnce(request, { recent });
    } catch (error) {
      // A data set at one of these timestamps after all: one stored by other means than ingest,
      // which keeps the vehicle's newest. The usual read finds it and answers it as a duplicate.
      if (uniqueViolation(error) === null) throw error;
    }
  }
  if (outcome && !("changed" in outcome)) return outcome;
  rememberRead(request.scope, request.ref, null);
  return null;
}

/** Read (unless `recent` stands in for it), plan, write: on the pool, or in the slow path's transaction `tx`. */
async function ingestOnce(
  { principal, scope, ref, sets }: IngestRequest,
  { tx, recent }: { tx?: Sql; recent?: IngestRead } = {},
): Promise<Outcome> {
  const sql = tx ?? rawSql();
  const read =
    recent ?? (await readForIngest(sql, { scope, ref, timestamps: sets.map((s) => s.timestamp.toISOString()) }));
  if (!read) throw notFound("vehicle");
  if (principal.environment === "production" && !principal.dataProvider) {
    throw new ApiError("FORBIDDEN", "Only apps approved as data providers may post data sets in production.");
  }

  const plan = planWrite(read, sets, { environment: principal.environment, unread: recent && { scope } });
  const vehicleId = read.vehicle.id;
  const duplicatesAt = plan.duplicateIds.length ? await duplicateView(principal, read.vehicle.accountId) : null;
  if (!plan.write)
    return {
      vehicleId,
      fresh: [],
      duplicateIds: plan.duplicateIds,
      duplicatesAt,
      after: { ...read, existing: new Map() },
    };

  // Outside a transaction, a device's small post shares a statement with other vehicles' (write-groups.ts).
  const written: Written | null =
    !tx && groupable(plan.write) ? await writeInGroup(sql, plan.write) : (await writeIngest(sql, [plan.write]))[0]!;
  if (!written) return { changed: vehicleId };
  recordIngest(principal.environment, {
    sets: plan.write.sets.length,
    points: plan.write.points.length,
    notifications: plan.write.events?.notifications.length ?? 0,
  });
  return {
    vehicleId,
    fresh: answerOf(vehicleId, plan.fresh, written),
    duplicateIds: plan.duplicateIds,
    duplicatesAt,
    after: readAfter(read, { ...plan, write: plan.write }, written),
  };
}

/**
 * How the caller sees the data sets a post repeats: they are stored data, not the poster's own,
 * so the answer is a read of them (docs/oauth.md#scopes). Without `data` that read is 403, thrown
 * before anything of the post is written; otherwise positions come at the grant's precision.
 */
async function duplicateView(principal: Principal, accountId: number): Promise<LocationPrecision> {
  const grant = await grantFor(principal, accountId);
  if (!grant.data)
    throw new ApiError(
      "FORBIDDEN",
      "The vehicle already has a data set at one of these timestamps, and the answer would show it: that is a read of " +
        'its data, which needs the "data" scope the driver has not granted this app (scope=data). Nothing was written.',
    );
  return grant.location;
}
