import { rawSql } from "@/db/client";
import type { AccountScope } from "@/server/accounts/queries";
import { accountScope } from "@/server/accounts/service";
import { uniqueViolation } from "@/server/http/db-errors";
import { ApiError, notFound } from "@/server/http/errors";
import { formatDateTime } from "@/common/http/datetime";
import { evaluateSubscriptions } from "@/server/notifications/evaluate";
import { factsOf } from "@/server/notifications/facts";
import type { Bearer } from "@/server/oauth/bearer";
import type { Principal } from "@/server/oauth/principal";
import { recordIngest } from "@/server/metrics/record";
import { decodeVin } from "@/server/vehicles/vin";
import { lockVehicle, readForIngest, writeIngest, type IngestRead, type IngestWrite, type NewDataPoint, type NewDataSet, type Sql } from "./ingest-statements";
import { translateValue } from "./keys";
import { readDataSets } from "./queries";
import { recentVehicle, rememberVehicle } from "./recent-vehicles";
import type { DataSetInput, DataSetOut } from "./schemas";
import { planIngest, type OpenTrip } from "./segmentation";
import { groupable, writeInGroup } from "./write-groups";

// POST /vehicle/{id}/dataSet/: one data set or a batch of up to 500, applied in timestamp order
// as one read and one atomic write (ingest-statements.ts). The write happens only if the vehicle
// row is still as read; if another write for the vehicle came in between, the whole ingest runs
// again under the vehicle's row lock, so concurrent posts for one vehicle cannot interleave their
// trips, state or subscription edges. Duplicates (same vehicle and timestamp) are ignored and
// answered with the data set already stored, so a device may safely resend. A vehicle this
// caller posted for a moment ago usually needs no token lookup and no read (recent-vehicles.ts),
// and its write shares one statement with other devices' posts (write-groups.ts).
//
// caller: the API's bearer token, looked up only when the write cannot check it, or a principal
// (the simulator's).
export async function ingestDataSets(caller: Principal | Bearer, vehicleRef: string, input: DataSetInput[]): Promise<DataSetOut[]> {
  const ordered = input.map((set, i) => ({ set, i })).sort((a, b) => a.set.timestamp.getTime() - b.set.timestamp.getTime() || a.i - b.i).map((e) => e.set);
  const timestamps = ordered.map((s) => s.timestamp.toISOString());
  const requestOf = (principal: Principal): IngestRequest => ({ principal, scope: accountScope(principal), ref: vehicleRef, ordered, timestamps });

  const sql = rawSql();
  const recent = recentVehicle(caller, vehicleRef);
  let request = recent && requestOf(recent.principal);
  let outcome = request && recent ? await ingestRecent(sql, request, recent.read, "hash" in caller ? caller.hash : null) : null;
  if (!request || !outcome) {
    // A hint that no longer held is dropped, so a revoked token or a lost vehicle does not pay
    // for a write that cannot happen on every post; a successful ingest below leaves a new one.
    if (recent) rememberVehicle(caller, vehicleRef, null);
    request = requestOf("hash" in caller ? await caller.authenticate() : caller);
    outcome = await ingestOnce(sql, request);
  }
  if ("changed" in outcome) {
    const vehicleId = outcome.changed;
    outcome = await sql.begin(async (tx) => {
      await lockVehicle(tx, vehicleId);
      return ingestOnce(tx, { ...request, ref: String(vehicleId) });
    });
    if ("changed" in outcome) throw new Error("the vehicle changed under its own row lock");
  }
  rememberVehicle(caller, vehicleRef, { principal: request.principal, read: outcome.after });

  const duplicates = outcome.duplicateIds.length ? await readDataSets({ vehicleId: outcome.vehicleId, ids: outcome.duplicateIds }) : [];
  return [...outcome.fresh, ...duplicates].sort((a, b) => a.timestamp.localeCompare(b.timestamp) || a.id - b.id);
}

// A datum's own time, when it differs from its set's (devices usually stamp both alike): the
// set's time is formatted once and shared, which matters for a batch's 1,500 points.
const ownTime = (d: DataSetInput["datum"][number], set: DataSetInput) => d.timestamp !== undefined && d.timestamp.getTime() !== set.timestamp.getTime();

type IngestRequest = { principal: Principal; scope: AccountScope; ref: string; ordered: DataSetInput[]; timestamps: string[] };
/** after: the vehicle as the write left it, for the next ingest (recent-vehicles.ts). */
type Outcome = { vehicleId: number; fresh: DataSetOut[]; duplicateIds: number[]; after: IngestRead } | { changed: number };

/**
 * The write alone, on what the last ingest for this caller and vehicle left, when every data set
 * is newer than the vehicle's newest then; null when that cannot be used or no longer held.
 */
async function ingestRecent(sql: Sql, request: IngestRequest, recent: IngestRead, tokenHash: string | null): Promise<Outcome | null> {
  const newest = recent.state.lastDataAt?.getTime() ?? -Infinity;
  if (request.ordered[0]!.timestamp.getTime() <= newest) return null;
  try {
    const outcome = await ingestOnce(sql, request, { read: recent, tokenHash });
    return "changed" in outcome ? null : outcome;
  } catch (error) {
    // A data set at one of these timestamps after all: one stored by other means than ingest,
    // which keeps the vehicle's newest. The usual read finds it and answers it as a duplicate.
    if (uniqueViolation(error) !== null) return null;
    throw error;
  }
}

/**
 * known: the vehicle as a recent ingest left it, instead of reading it, and the token the
 * principal came from (the write then checks both).
 */
async function ingestOnce(sql: Sql, { principal, scope, ref, ordered, timestamps }: IngestRequest, known?: { read: IngestRead; tokenHash: string | null }): Promise<Outcome> {
  const read = known?.read ?? (await readForIngest(sql, { scope, ref, timestamps }));
  if (!read) throw notFound("vehicle");
  if (principal.environment === "production" && !principal.dataProvider) {
    throw new ApiError("FORBIDDEN", "Only apps approved as data providers may post data sets in production.");
  }
  const { vehicle, state, openTrip, existing, subscriptions } = read;

  const fresh: DataSetInput[] = [];
  const duplicateIds: number[] = [];
  const seen = new Set<number>();
  for (const set of ordered) {
    const at = set.timestamp.getTime();
    const stored = existing.get(at);
    if (stored !== undefined) duplicateIds.push(stored);
    else if (!seen.has(at)) fresh.push(set);
    seen.add(at);
  }
  if (fresh.length === 0) return { vehicleId: vehicle.id, fresh: [], duplicateIds, after: { ...read, existing: new Map() } };

  const plan = planIngest({ state, openTrip }, fresh);
  const created = plan.trips.filter((t) => t.ref < 0);
  const startOf = new Map(created.map((t) => [t.ref, t.startTime.toISOString()]));
  const times = fresh.map((set) => set.timestamp.toISOString());
  const rows: NewDataSet[] = fresh.map((set, i) => {
    const trip = plan.tripOf[i]!;
    return {
      recordedAt: times[i]!,
      ignitionStatus: set.ignitionStatus,
      tripId: typeof trip === "number" && trip > 0 ? trip : null,
      tripStart: typeof trip === "number" && trip < 0 ? startOf.get(trip)! : null,
      late: trip === "late",
      deviceId: set.deviceId ?? null,
      vin: set.vin ?? null,
    };
  });
  const points: NewDataPoint[] = fresh.flatMap((set, i) =>
    set.datum.map((d, position) => ({ setAt: times[i]!, position, recordedAt: ownTime(d, set) ? d.timestamp!.toISOString() : times[i]!, key: d.key, value: d.value })),
  );
  // Subscriptions are evaluated against the state the previous data set left, and their new
  // states are written only if that state is still current: an edge can neither fire twice nor
  // be missed by concurrent posts for one vehicle.
  const evaluation =
    subscriptions.length > 0
      ? evaluateSubscriptions(
          subscriptions,
          fresh.map((set, i) => ({ facts: factsOf(set), late: plan.tripOf[i] === "late" })),
          { running: state.running },
        )
      : null;

  const write: IngestWrite = {
    environment: principal.environment,
    vehicleId: vehicle.id,
    version: read.version,
    state: plan.state,
    decoded: plan.state.vin !== state.vin && plan.state.vin ? decodeVin(plan.state.vin) : null,
    createdTrips: created,
    updatedTrips: plan.trips.filter((t) => t.ref > 0),
    sets: rows,
    points,
    events: evaluation && { accountId: vehicle.accountId, notifications: evaluation.notifications, setTimes: times, states: evaluation.states },
    unread: known && { scope, subscriptionsVersion: read.subscriptionsVersion, tokenHash: known.tokenHash, dataProvider: principal.environment === "production" },
  };
  // Without a read (unread, only ever outside a transaction), the write is usually a device's
  // next post: it shares a statement with other vehicles' (write-groups.ts).
  const written = groupable(write) ? await writeInGroup(sql, write) : (await writeIngest(sql, [write]))[0]!;
  if (!written) return { changed: vehicle.id };
  recordIngest(principal.environment, { sets: rows.length, points: points.length, notifications: evaluation?.notifications.length ?? 0 });
  const openAfter = (trip: OpenTrip | null) => trip && (trip.ref > 0 ? trip : { ...trip, ref: written.createdTrips.get(trip.startTime.getTime())! });

  // The answer is built from what was written; only duplicates are read back.
  const setByTime = new Map(written.sets.map((r) => [r.at, r]));
  const pointId = new Map(written.points.map((p) => [`${p.dataSetId}:${p.position}`, p.id]));
  return {
    vehicleId: vehicle.id,
    duplicateIds,
    after: {
      ...read,
      version: written.version,
      state: plan.state,
      openTrip: openAfter(plan.open),
      existing: new Map(),
      subscriptions: evaluation ? subscriptions.map((s) => (evaluation.states.has(s.id) ? { ...s, state: evaluation.states.get(s.id)! } : s)) : subscriptions,
    },
    fresh: fresh.map((set, i): DataSetOut => {
      const stored = setByTime.get(set.timestamp.getTime())!;
      const timestamp = formatDateTime(set.timestamp);
      return {
        id: stored.id,
        vehicleId: vehicle.id,
        tripId: stored.tripId,
        timestamp,
        ignitionStatus: set.ignitionStatus,
        deviceId: rows[i]!.deviceId,
        vin: rows[i]!.vin,
        datum: set.datum.map((d, position) => ({
          id: pointId.get(`${stored.id}:${position}`)!,
          dataSetId: stored.id,
          timestamp: ownTime(d, set) ? formatDateTime(d.timestamp!) : timestamp,
          key: d.key,
          value: d.value,
          translatedValue: translateValue(d.key, d.value),
        })),
      };
    }),
  };
}
