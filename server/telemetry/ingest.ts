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
  tripsHolding,
  updateTrip,
  type NewDataPoint,
} from "./ingest-queries";
import { translateValue } from "./keys";
import type { DataSetInput, DataSetOut } from "./schemas";
import { planIngest } from "./segmentation";
import { formatDateTime } from "@/server/http/datetime";
import { readDataSets } from "./queries";

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
    const state = await lockVehicleState(tx, vehicle.id);
    if (!state) throw notFound("vehicle");
    const existing = await existingDataSets(tx, vehicle.id, ordered.map((s) => s.timestamp));

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

    const plan = planIngest({ state, openTrip: await findOpenTrip(tx, vehicle.id) }, fresh);
    const created = plan.trips.filter((t) => t.ref < 0);
    const createdIds = await insertTrips(tx, principal.environment, vehicle.id, created);
    const tripIds = new Map(created.map((t, i) => [t.ref, createdIds[i]!]));
    for (const trip of plan.trips) if (trip.ref > 0) await updateTrip(tx, trip);

    const lateIndexes = plan.tripOf.flatMap((t, i) => (t === "late" ? [i] : []));
    const lateTrips = lateIndexes.length ? await tripsHolding(tx, vehicle.id, lateIndexes.map((i) => fresh[i]!.timestamp)) : [];
    const lateTrip = new Map(lateIndexes.map((setIndex, k) => [setIndex, lateTrips[k] ?? null]));
    const tripIdOf = (i: number): number | null => {
      const ref = plan.tripOf[i]!;
      if (ref === "late") return lateTrip.get(i) ?? null;
      if (ref === null) return null;
      return ref < 0 ? tripIds.get(ref)! : ref;
    };

    const rows = fresh.map((set, i) => ({ recordedAt: set.timestamp, ignitionStatus: set.ignitionStatus, tripId: tripIdOf(i), deviceId: set.deviceId ?? null, vin: set.vin ?? null }));
    const setIds = await insertDataSets(tx, principal.environment, vehicle.id, rows);
    const points: NewDataPoint[] = fresh.flatMap((set) =>
      set.datum.map((d, position) => ({ dataSetId: setIds.get(set.timestamp.getTime())!, position, recordedAt: d.timestamp ?? set.timestamp, key: d.key, value: d.value })),
    );
    const pointIds = await insertDataPoints(tx, vehicle.id, points);

    const vinChanged = plan.state.vin !== state.vin;
    if (plan.stateChanged) await saveVehicleState(tx, vehicle.id, plan.state, vinChanged ? decoded : null);
    const keyCounts = new Map<string, number>();
    for (const p of points) keyCounts.set(p.key, (keyCounts.get(p.key) ?? 0) + 1);
    await bumpStats(tx, vehicle.id, fresh.length, keyCounts);

    // The answer is built from what was written; only duplicates are read back.
    const pointId = new Map(pointIds.map((p) => [`${p.dataSetId}:${p.position}`, p.id]));
    return {
      duplicateIds,
      fresh: rows.map((row, i): DataSetOut => {
        const id = setIds.get(row.recordedAt.getTime())!;
        const set = fresh[i]!;
        return {
          id,
          vehicleId: vehicle.id,
          tripId: row.tripId,
          timestamp: formatDateTime(row.recordedAt),
          ignitionStatus: row.ignitionStatus,
          deviceId: row.deviceId,
          vin: row.vin,
          datum: set.datum.map((d, position) => ({
            id: pointId.get(`${id}:${position}`)!,
            dataSetId: id,
            timestamp: formatDateTime(d.timestamp ?? set.timestamp),
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
