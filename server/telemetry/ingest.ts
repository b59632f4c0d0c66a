import { rawSql } from "@/db/client";
import { ApiError, notFound } from "@/server/http/errors";
import type { Principal } from "@/server/oauth/principal";
import { decodeVin } from "@/server/vehicles/vin";
import { getVisibleVehicle } from "@/server/vehicles/service";
import {
  bumpStats,
  existingDataSets,
  findOpenTrip,
  insertDataPoints,
  insertDataSets,
  insertTrips,
  lockVehicleState,
  saveVehicleState,
  updateTrip,
  type NewDataPoint,
  type NewDataSet,
} from "./ingest-queries";
import { translateValue } from "./keys";
import type { DataSetInput, DataSetOut } from "./schemas";
import { planIngest } from "./segmentation";
import { formatDateTime } from "@/server/http/datetime";
import { readDataSets } from "./queries";
import { evaluateSubscriptions } from "@/server/notifications/evaluate";
import { factsOf } from "@/server/notifications/facts";
import { insertDataNotifications, liveSubscriptions, saveSubscriptionStates } from "@/server/notifications/ingest-queries";

// POST /vehicle/{id}/dataSet/: one data set or a batch of up to 500, applied in timestamp order
// in one transaction under the vehicle's row lock, so concurrent posts for one vehicle cannot
// interleave their trips or state. Duplicates (same vehicle and timestamp) are ignored and
// answered with the data set already stored, so a device may safely resend.
export async function ingestDataSets(principal: Principal, vehicleRef: string, input: DataSetInput[]): Promise<DataSetOut[]> {
  const vehicle = await getVisibleVehicle(principal, vehicleRef);
  if (principal.environment === "production" && !principal.dataProvider) {
    throw new ApiError("FORBIDDEN", "Only apps approved as data providers may post data sets in production.");
  }
  const ordered = input.map((set, i) => ({ set, i })).sort((a, b) => a.set.timestamp.getTime() - b.set.timestamp.getTime() || a.i - b.i).map((e) => e.set);
  const vin = ordered.findLast((s) => s.vin)?.vin ?? null;
  const decoded = vin ? decodeVin(vin) : null;

  const outcome = await rawSql().begin(async (tx) => {
    // Reads, then writes, each sent as one pipeline: the row lock goes first, and PostgreSQL runs
    // a connection's statements in order, so everything after it sees the locked state.
    const [state, openTrip, existing, subscriptions] = await Promise.all([
      lockVehicleState(tx, vehicle.id),
      findOpenTrip(tx, vehicle.id),
      existingDataSets(
        tx,
        vehicle.id,
        ordered.map((s) => s.timestamp),
      ),
      liveSubscriptions(tx, vehicle),
    ]);
    if (!state) throw notFound("vehicle");

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
    if (fresh.length === 0) return { fresh: [], duplicateIds };

    const plan = planIngest({ state, openTrip }, fresh);
    const created = plan.trips.filter((t) => t.ref < 0);
    const startOf = new Map(created.map((t) => [t.ref, t.startTime.toISOString()]));
    const times = fresh.map((set) => set.timestamp.toISOString());
    const rows: NewDataSet[] = fresh.map((set, i) => {
      const ref = plan.tripOf[i]!;
      return {
        recordedAt: times[i]!,
        ignitionStatus: set.ignitionStatus,
        tripId: typeof ref === "number" && ref > 0 ? ref : null,
        tripStart: typeof ref === "number" && ref < 0 ? startOf.get(ref)! : null,
        late: ref === "late",
        deviceId: set.deviceId ?? null,
        vin: set.vin ?? null,
      };
    });
    const points: NewDataPoint[] = fresh.flatMap((set, i) =>
      set.datum.map((d, position) => ({ setAt: times[i]!, position, recordedAt: d.timestamp ? d.timestamp.toISOString() : times[i]!, key: d.key, value: d.value })),
    );
    const keyCounts = new Map<string, number>();
    for (const p of points) keyCounts.set(p.key, (keyCounts.get(p.key) ?? 0) + 1);
    const vinChanged = plan.state.vin !== state.vin;
    // Subscriptions are evaluated here, under the vehicle's row lock, against the state the
    // previous data set left: concurrent posts for one vehicle cannot double-fire or miss an edge.
    const evaluation =
      subscriptions.length > 0
        ? evaluateSubscriptions(
            subscriptions,
            fresh.map((set, i) => ({ facts: factsOf(set), late: plan.tripOf[i] === "late" })),
            { running: state.running },
          )
        : null;

    const [, , setRows, pointRows] = await Promise.all([
      insertTrips(tx, principal.environment, vehicle.id, created),
      Promise.all(plan.trips.filter((t) => t.ref > 0).map((t) => updateTrip(tx, t))),
      insertDataSets(tx, principal.environment, vehicle.id, rows),
      insertDataPoints(tx, vehicle.id, points),
      plan.stateChanged ? saveVehicleState(tx, vehicle.id, plan.state, vinChanged ? decoded : null) : null,
      bumpStats(tx, vehicle.id, fresh.length, keyCounts),
      evaluation && insertDataNotifications(tx, { environment: principal.environment, vehicleId: vehicle.id, accountId: vehicle.accountId, notifications: evaluation.notifications, setTimes: times }),
      evaluation && saveSubscriptionStates(tx, vehicle.id, evaluation.states),
    ]);

    // The answer is built from what was written; only duplicates are read back.
    const setByTime = new Map(setRows.map((r) => [r.at, r]));
    const pointId = new Map(pointRows.map((p) => [`${p.dataSetId}:${p.position}`, p.id]));
    return {
      duplicateIds,
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
            timestamp: d.timestamp ? formatDateTime(d.timestamp) : timestamp,
            key: d.key,
            value: d.value,
            translatedValue: translateValue(d.key, d.value),
          })),
        };
      }),
    };
  });

  const duplicates = outcome.duplicateIds.length ? await readDataSets({ vehicleId: vehicle.id, ids: outcome.duplicateIds }) : [];
  return [...outcome.fresh, ...duplicates].sort((a, b) => a.timestamp.localeCompare(b.timestamp) || a.id - b.id);
}
