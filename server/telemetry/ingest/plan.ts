import { formatDateTime } from "@/common/http/datetime";
import type { AccountScope } from "@/server/accounts/queries";
import { evaluateAlerts } from "@/server/alerts/evaluate";
import { evaluateSubscriptions } from "@/server/notifications/evaluate";
import { factsOf } from "@/server/notifications/facts";
import { decodeVin } from "@/server/vehicles/vin";
import { LOCATION_KEYS, translateValue } from "@/common/telemetry/keys";
import type { DataSetInput, DataSetOut } from "../schemas";
import { planIngest, type OpenTrip } from "../segmentation";
import type { IngestRead } from "./read";
import type { IngestWrite, NewDataPoint, NewDataSet, Written } from "./write";

// Ingest's plan, pure: from what the read found and the posted data sets (in timestamp order),
// what the write must do: which sets are new and which are duplicates, their trips
// (segmentation.ts), the vehicle's new state, and the notifications and subscription states
// their evaluation makes. Then, from what the write answered, the API's answer and what the
// vehicle looks like now (for the next post's recent read). No I/O, no clock.

export type IngestPlan = {
  /** Data sets the vehicle already had at a posted time: answered as stored. */
  duplicateIds: number[];
  /** The new data sets, in timestamp order (one per timestamp). */
  fresh: DataSetInput[];
  /** Null when nothing is new. */
  write: IngestWrite | null;
  /** The trip left open after the write (a created one by its negative ref). */
  open: OpenTrip | null;
};

/**
 * read: the vehicle as read (or as the last ingest left it, then `unread` is set). sets: in
 * timestamp order; of two with one timestamp the first is kept. A paused vehicle's sets are planned
 * without their positions, whoever posts them (withoutPositions).
 */
export function planWrite(
  read: IngestRead,
  sets: DataSetInput[],
  context: { environment: IngestWrite["environment"]; unread?: { scope: AccountScope } },
): IngestPlan {
  const { vehicle, state, openTrip, existing, subscriptions, alertRules } = read;
  const fresh: DataSetInput[] = [];
  const duplicateIds: number[] = [];
  const seen = new Set<number>();
  for (const set of vehicle.locationPaused ? withoutPositions(sets) : sets) {
    const at = set.timestamp.getTime();
    const stored = existing.get(at);
    if (stored !== undefined) duplicateIds.push(stored);
    else if (!seen.has(at)) fresh.push(set);
    seen.add(at);
  }
  if (fresh.length === 0) return { duplicateIds, fresh, write: null, open: openTrip };

  const plan = planIngest({ state, openTrip }, fresh);
  const created = plan.trips.filter((t) => t.ref < 0);
  const startOf = new Map(created.map((t) => [t.ref, t.startTime.toISOString()]));
  const times = fresh.map((set) => set.timestamp.toISOString());
  const rows: NewDataSet[] = fresh.map((set, i) => {
    const trip = plan.tripOf[i]!;
    const span = pointSpan(set);
    return {
      recordedAt: times[i]!,
      pointsFrom: span ? span.from.toISOString() : null,
      pointsTo: span ? span.to.toISOString() : null,
      ignitionStatus: set.ignitionStatus,
      tripId: typeof trip === "number" && trip > 0 ? trip : null,
      tripStart: typeof trip === "number" && trip < 0 ? startOf.get(trip)! : null,
      late: trip === "late",
      deviceId: set.deviceId ?? null,
      vin: set.vin ?? null,
    };
  });
  const points: NewDataPoint[] = fresh.flatMap((set, i) =>
    set.datum.map((d, position) => ({
      set: i,
      position,
      recordedAt: ownTime(d, set) ? d.timestamp!.toISOString() : null,
      key: d.key,
      value: d.value,
    })),
  );
  // Subscriptions are evaluated against the state the previous data set left, and their new
  // states are written only if that state is still current (the write's version check): an edge
  // can neither fire twice nor be missed by concurrent posts for one vehicle.
  // The driver's alerts are evaluated on the same facts, read once for both.
  const facts =
    subscriptions.length > 0 || alertRules
      ? fresh.map((set, i) => ({ facts: factsOf(set), late: plan.tripOf[i] === "late" }))
      : [];
  const evaluation =
    subscriptions.length > 0 ? evaluateSubscriptions(subscriptions, facts, { running: state.running }) : null;
  const alerting = alertRules
    ? evaluateAlerts(alertRules, facts, { running: state.running, locationPaused: vehicle.locationPaused })
    : null;

  return {
    duplicateIds,
    fresh,
    write: {
      environment: context.environment,
      vehicleId: vehicle.id,
      version: read.version,
      state: plan.state,
      decoded: plan.state.vin !== state.vin && plan.state.vin ? decodeVin(plan.state.vin) : null,
      createdTrips: created,
      updatedTrips: plan.trips.filter((t) => t.ref > 0),
      sets: rows,
      points,
      events: evaluation && {
        accountId: vehicle.accountId,
        notifications: evaluation.notifications,
        states: evaluation.states,
      },
      alerts: alerting && { accountId: vehicle.accountId, alerts: alerting.alerts, episodes: alerting.episodes },
      unread: context.unread && { scope: context.unread.scope, subscriptionsVersion: read.subscriptionsVersion },
    },
    open: plan.open,
  };
}

// Paused by the driver: the positions (GEN_WAYPOINT, and GEN_NEAREST_ADDRESS, the address near one)
// are not stored; the rest of each data set is, so lastWaypoint, trips' ends and every evaluation see
// no new position (docs/driver-site.md#pause-location).
const withoutPositions = (sets: DataSetInput[]): DataSetInput[] =>
  sets.map((set) => ({ ...set, datum: set.datum.filter((d) => !LOCATION_KEYS.has(d.key)) }));

/** The vehicle as the write left it: what the next post for it may start from instead of a read. */
export function readAfter(
  read: IngestRead,
  { write, open }: IngestPlan & { write: IngestWrite },
  written: Written,
): IngestRead {
  const states = write.events?.states;
  const episodes = write.alerts?.episodes;
  return {
    ...read,
    version: written.version,
    state: write.state,
    openTrip: open && (open.ref > 0 ? open : { ...open, ref: written.createdTrips.get(open.startTime.getTime())! }),
    existing: new Map(),
    subscriptions: states
      ? read.subscriptions.map((s) => (states.has(s.id) ? { ...s, state: states.get(s.id)! } : s))
      : read.subscriptions,
    alertRules:
      read.alertRules && episodes?.size
        ? { ...read.alertRules, episodes: new Map([...read.alertRules.episodes, ...episodes]) }
        : read.alertRules,
  };
}

/** The stored data sets as the API answers them, built from what was posted and the ids the write gave. */
export function answerOf(vehicleId: number, fresh: DataSetInput[], written: Written): DataSetOut[] {
  const setByTime = new Map(written.sets.map((r) => [r.at, r]));
  // Each set's point ids by position: a batch answers 1,500 points, and a map keyed by "set:position"
  // strings made this function 9.4 % of node's CPU profile under batches, 7.0 % with these (docs/benchmarks.md).
  const pointIds = new Map<number, number[]>();
  for (const p of written.points) {
    let ids = pointIds.get(p.dataSetId);
    if (!ids) pointIds.set(p.dataSetId, (ids = []));
    ids[p.position] = p.id;
  }
  return fresh.map((set): DataSetOut => {
    const stored = setByTime.get(set.timestamp.getTime())!;
    const ids = pointIds.get(stored.id) ?? [];
    const timestamp = formatDateTime(set.timestamp);
    return {
      id: stored.id,
      vehicleId,
      tripId: stored.tripId,
      timestamp,
      ignitionStatus: set.ignitionStatus,
      deviceId: set.deviceId ?? null,
      vin: set.vin ?? null,
      datum: set.datum.map((d, position) => ({
        id: ids[position]!,
        dataSetId: stored.id,
        timestamp: ownTime(d, set) ? formatDateTime(d.timestamp!) : timestamp,
        key: d.key,
        value: d.value,
        translatedValue: translateValue(d.key, d.value),
      })),
    };
  });
}

/**
 * The span of the set's time and its points' own times, when a point has a time of its own; null
 * when every point is at the set's time (the set's time is then the span, and the write sends none).
 */
function pointSpan(set: DataSetInput): { from: Date; to: Date } | null {
  let from = set.timestamp;
  let to = set.timestamp;
  for (const d of set.datum) {
    if (!ownTime(d, set)) continue;
    if (d.timestamp! < from) from = d.timestamp!;
    if (d.timestamp! > to) to = d.timestamp!;
  }
  return from === set.timestamp && to === set.timestamp ? null : { from, to };
}

// A datum's own time, when it differs from its set's (devices usually stamp both alike): the
// set's time is formatted once and shared, which matters for a batch's 1,500 points. A posted body's
// points that repeat their set's time come without one (schemas.ts): the first test answers them.
const ownTime = (d: DataSetInput["datum"][number], set: DataSetInput) =>
  d.timestamp !== undefined && d.timestamp.getTime() !== set.timestamp.getTime();
