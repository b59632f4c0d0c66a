import { and, asc, eq, getTableColumns, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import { db } from "@/db/client";
import { simulationRuns } from "@/db/schema";
import { ApiError } from "@/common/http/errors";
import { logger } from "@/server/platform/log";
import type { Principal } from "@/server/api-auth/principal";
import { ingestDataSets } from "@/server/telemetry/ingest";
import { MAX_BATCH, type DataSetInput } from "@/server/telemetry/schemas";
import { METERS_PER_MILE } from "./geo";
import { generateTrip, isLoop, reverseRoute, roundMiles, routeLength, type Sample, type Trip } from "./model";
import { updateRun, type RunRow } from "./queries";
import { FULL_GRANT } from "@/common/oauth/grant-scope";

// Driving one real-time run forward: which of its data sets are due, posting them through the
// same ingest a device uses, and recording how far it got. The loop (worker/simulator.ts) claims
// due runs in batches and calls advanceRun for each.

/** Pause between the laps of a repeating run (parked, ignition off). */
const LAP_PAUSE_SECONDS = 20;
/** How long a claimed run stays with the process that claimed it, if that process dies. */
const LEASE_SECONDS = 30;
const RETRY_SECONDS = 5;

/** The app (and account, for a user token) that started the run: its data is posted as them. */
function principalOf(
  run: Pick<RunRow, "environment" | "appId" | "credentialId" | "clientId" | "accountId">,
): Principal {
  const base = {
    environment: run.environment,
    via: "simulator" as const,
    appId: run.appId,
    credentialId: run.credentialId,
    clientId: run.clientId,
    dataProvider: false,
  };
  return run.accountId === null
    ? { ...base, kind: "client", accountId: null, grant: null }
    : // The simulator posts data as the run's token would; it reads nothing back.
      { ...base, kind: "user", accountId: run.accountId, grant: FULL_GRANT };
}

export type LapPlan = { trip: Trip; /** seconds after lap start when each data set is due */ due: number[] };

const seedOfLap = (seed: number, lap: number) => (seed + lap * 7919) % 2_147_483_647;

/**
 * The odometer a lap starts from: the vehicle's mileage when the run started plus the laps driven
 * since (each the route's length, forwards or backwards alike). Derived, not stored, so a restart
 * regenerates the same lap; null for runs started before the simulator reported GEN_ODOMETER.
 */
export function lapOdometer(run: Pick<RunRow, "geometry" | "lap" | "params">): number | null {
  const start = run.params.odometer;
  if (start === undefined || start === null) return null;
  return roundMiles(start + run.lap * roundMiles(routeLength(run.geometry) / METERS_PER_MILE));
}

/** A lap's trip: odd laps of a repeating run that is not a loop drive the route backwards. */
export function planLap(
  run: Pick<RunRow, "geometry" | "seed" | "lap" | "collectionPeriod" | "speedUp" | "params" | "repeat">,
): LapPlan {
  const route = run.repeat && run.lap % 2 === 1 && !isLoop(run.geometry) ? reverseRoute(run.geometry) : run.geometry;
  const odometer = lapOdometer(run);
  const trip = generateTrip(route, {
    collectionPeriod: run.collectionPeriod,
    seed: seedOfLap(run.seed, run.lap),
    events: run.params.events as Parameters<typeof generateTrip>[1]["events"],
    lowBattery: run.params.lowBattery,
    engineData: run.params.engineData,
    fuelLevel: run.params.fuelLevel ?? undefined,
    odometer: odometer ?? undefined,
  });
  // Sped up, data sets come speedUp times as often; whole seconds apart at least (the wire
  // DateTime has seconds), which the API's collectionPeriod / speedUp >= 1 rule guarantees for
  // all but the OFF, nudged here.
  const due: number[] = [];
  for (const s of trip.samples)
    due.push(Math.max(Math.floor(s.offset / run.speedUp), due.length ? due.at(-1)! + 1 : 0));
  return { trip, due };
}

// Trips are regenerated from geometry and seed after a restart; within a process they are kept.
// A claimed run comes without its geometry (kilobytes of JSON), which is read only to plan a lap.
export type ClaimedRun = Omit<RunRow, "geometry">;
const plans = new Map<string, LapPlan>();
const PLAN_CACHE = 5000;
async function cachedPlan(run: ClaimedRun): Promise<LapPlan> {
  const key = `${run.id}:${run.lap}`;
  let plan = plans.get(key);
  if (!plan) {
    const [row] = await db()
      .select({ geometry: simulationRuns.geometry })
      .from(simulationRuns)
      .where(eq(simulationRuns.id, run.id));
    if (!row) throw new Error(`simulation ${run.id} is gone`);
    plan = planLap({ ...run, geometry: row.geometry });
    if (plans.size >= PLAN_CACHE) plans.delete(plans.keys().next().value!);
    plans.set(key, plan);
  }
  return plan;
}

export function toDataSet(sample: Pick<Sample, "ignition" | "datum">, at: Date): DataSetInput {
  return {
    timestamp: at,
    ignitionStatus: sample.ignition,
    datum: sample.datum.map((d) => ({ key: d.key, value: d.value })),
  };
}

/** Claims up to `limit` due runs for this process (others skip them): a lease, not a held lock. */
export async function claimDueRuns(limit: number): Promise<ClaimedRun[]> {
  const due = db()
    .select({ id: simulationRuns.id })
    .from(simulationRuns)
    .where(
      and(
        eq(simulationRuns.mode, "realtime"),
        lte(simulationRuns.nextDueAt, sql`now()`),
        or(
          eq(simulationRuns.status, "running"),
          and(eq(simulationRuns.status, "stopped"), eq(simulationRuns.parkPending, true)),
        ),
        or(isNull(simulationRuns.leaseUntil), lt(simulationRuns.leaseUntil, sql`now()`)),
      ),
    )
    .orderBy(asc(simulationRuns.nextDueAt))
    .limit(limit)
    .for("update", { skipLocked: true });
  return db()
    .update(simulationRuns)
    .set({ leaseUntil: sql`now() + make_interval(secs => ${LEASE_SECONDS})` })
    .where(inArray(simulationRuns.id, due))
    .returning(claimedColumns);
}

const { geometry: _geometry, ...claimedColumns } = getTableColumns(simulationRuns);

/** When the next real-time data set is due anywhere (null: nothing running). */
export async function nextDueAt(): Promise<Date | null> {
  const [row] = await db()
    .select({
      at: sql<Date | null>`min(${simulationRuns.nextDueAt})`.mapWith((v: string | Date | null) =>
        v === null ? null : new Date(v),
      ),
    })
    .from(simulationRuns)
    .where(
      and(
        eq(simulationRuns.mode, "realtime"),
        or(eq(simulationRuns.status, "running"), eq(simulationRuns.parkPending, true)),
      ),
    );
  return row?.at ?? null;
}

export type Advanced = {
  posted: number;
  dueAt: number[];
  committedAt: number;
  /** How long the ingest call took (the rest of the lag is waiting for a turn). */
  ingestMs: number;
};

/** Where a driven run is now: written for a whole batch of runs in one statement (saveOutcomes). */
export type Outcome = {
  id: number;
  lap: number;
  lapStartedAt: Date;
  nextIndex: number;
  tripId: number | null;
  progress: number;
  posted: number;
  finished: boolean;
  tripOpen: boolean;
  nextDue: Date | null;
};

const second = (ms: number) => Math.floor(ms / 1000) * 1000;

/**
 * Posts what is due of one claimed run. A running run's new position comes back as an outcome
 * for saveOutcomes; stops, parking and failures are written here (they are rare).
 */
export async function advanceRun(run: ClaimedRun, now = Date.now()): Promise<Advanced & { outcome: Outcome | null }> {
  try {
    if (run.status === "stopped") return { ...(await park(run, now)), outcome: null };
    return await drive(run, now);
  } catch (error) {
    if (error instanceof ApiError && error.code === "NOT_FOUND") {
      await updateRun(db(), {
        id: run.id,
        values: {
          status: "stopped",
          stopReason: "The vehicle is no longer visible to the app that started the simulation.",
          parkPending: false,
          nextDueAt: null,
          leaseUntil: null,
          endedAt: new Date(),
        },
      });
    } else {
      logger.error(
        { err: error, runId: run.id },
        `simulation ${run.id}: advancing failed; retrying in ${RETRY_SECONDS} s`,
      );
      await updateRun(db(), { id: run.id, values: { leaseUntil: new Date(now + RETRY_SECONDS * 1000) } });
    }
    return { posted: 0, dueAt: [], committedAt: Date.now(), ingestMs: 0, outcome: null };
  }
}

async function drive(run: ClaimedRun, now: number): Promise<Advanced & { outcome: Outcome }> {
  const { trip, due } = await cachedPlan(run);
  const lapStart = run.lapStartedAt.getTime();
  const sets: DataSetInput[] = [];
  const dueAt: number[] = [];
  let i = run.nextIndex;
  while (i < due.length && lapStart + due[i]! * 1000 <= now && sets.length < MAX_BATCH) {
    // Due instants keep the run's sub-second phase, so a fleet's runs spread over each second
    // instead of all falling due on the second; the wire timestamp is the whole second.
    const at = lapStart + due[i]! * 1000;
    sets.push(toDataSet(trip.samples[i]!, new Date(second(at))));
    dueAt.push(at);
    i++;
  }
  const ingestStart = Date.now();
  const stored = sets.length ? await ingestDataSets(principalOf(run), String(run.vehicleId), sets) : [];
  const committedAt = Date.now();
  const tripId = stored.findLast((s) => s.tripId !== null)?.tripId ?? run.tripId;

  const lapDone = i >= due.length;
  const outcome: Outcome = {
    id: run.id,
    lap: run.lap,
    lapStartedAt: run.lapStartedAt,
    nextIndex: i,
    tripId,
    progress: lapDone ? 1 : i > 0 ? trip.samples[i - 1]!.progress : 0,
    posted: sets.length,
    finished: lapDone && !run.repeat,
    tripOpen: !lapDone && i > 0,
    nextDue: lapDone ? null : new Date(lapStart + due[i]! * 1000),
  };
  if (lapDone && run.repeat) {
    const nextLap = new Date(lapStart + (due.at(-1)! + LAP_PAUSE_SECONDS) * 1000);
    Object.assign(outcome, { lap: run.lap + 1, lapStartedAt: nextLap, nextIndex: 0, nextDue: nextLap, progress: 0 });
  }
  return { posted: sets.length, dueAt, committedAt, ingestMs: committedAt - ingestStart, outcome };
}

/** A run stopped mid-trip: the vehicle parks where it is, with the trip's mileage so far. */
async function park(run: ClaimedRun, now: number): Promise<Advanced> {
  const { trip, due } = await cachedPlan(run);
  const last = trip.samples[Math.max(0, run.nextIndex - 1)]!;
  const lastAt = second(run.lapStartedAt.getTime() + due[Math.max(0, run.nextIndex - 1)]! * 1000);
  const at = Math.max(second(now), lastAt + 1000);
  const miles = roundMiles((last.progress * trip.lengthMeters) / METERS_PER_MILE);
  const keep = new Set(["GEN_WAYPOINT", "GEN_HEADING", "GEN_FUELLEVEL", "GEN_ODOMETER"]);
  const datum = [
    ...last.datum.filter((d) => keep.has(d.key)),
    { key: "GEN_SPEED", value: "0.0" },
    { key: "GEN_VOLTAGE", value: run.params.lowBattery ? "11.6" : "12.6" },
    { key: "GEN_TRIP_MILEAGE", value: String(miles) },
  ];
  const ingestStart = Date.now();
  const stored = await ingestDataSets(principalOf(run), String(run.vehicleId), [
    toDataSet({ ignition: "OFF", datum }, new Date(at)),
  ]);
  const committedAt = Date.now();
  await updateRun(db(), {
    id: run.id,
    values: {
      parkPending: false,
      nextDueAt: null,
      leaseUntil: null,
      dataSetCount: sql`${simulationRuns.dataSetCount} + 1`,
      tripId: stored[0]?.tripId ?? run.tripId,
    },
  });
  return { posted: 1, dueAt: [at], committedAt, ingestMs: committedAt - ingestStart };
}
