import { db } from "@/db/client";
import { ApiError, notFound, validationError } from "@/common/http/errors";
import { uniqueViolation } from "@/db/errors";
import type { Page } from "@/common/http/paging";
import type { Principal } from "@/server/api-auth/principal";
import { ingestDataSets } from "@/server/telemetry/ingest";
import { MAX_BATCH } from "@/server/telemetry/schemas";
import { getVisibleVehicle } from "@/server/vehicles/service";
import type { Environment } from "@/db/schema";
import { findTemplate, templateWay, wayFromRequest, type Way } from "./geometry";
import { generateTrip, routeLength, type InjectedEvent } from "./model";
import { randomSeed } from "./prng";
import {
  deleteRoute,
  findRoute,
  findRun,
  insertRoute,
  insertRun,
  listRoutes,
  listRuns,
  stopRun,
  updateRun,
  type RunRow,
} from "./queries";
import { toDataSet } from "./runner";
import type { SavedRouteInput, SimulationInput } from "./schemas";
import { serializeRoute, serializeRun, serializeTemplate } from "./serialize";
import { networkById } from "./routing";
import { TEMPLATES } from "./templates";

// The simulator's control API: start, list, read and stop runs; saved routes; templates. Sandbox
// only, and only on vehicles the caller may see (the same checks as every vehicle read).

const DEFAULT_EVENT_VALUE: Record<string, string> = { GEN_DTC: "P0420" };

function assertSandbox(environment: Environment): void {
  if (environment !== "sandbox")
    throw new ApiError("FORBIDDEN", "The traffic simulator is available in the sandbox only (/sandbox/api).");
}

const alreadyRunning = () =>
  new ApiError("CANNOTPERSIST", "This vehicle already has a running simulation; stop it first.", [
    {
      fieldName: "vehicleId",
      errorCode: "UNIQUE",
      errorDisplay: "This vehicle already has a running simulation; stop it first.",
    },
  ]);

async function resolveWay(
  principal: Principal,
  input: SimulationInput,
): Promise<Way & { routeId: number | null; templateId: string | null }> {
  if (input.routeId !== undefined) {
    const route = await findRoute(db(), {
      environment: principal.environment,
      appId: principal.appId,
      id: input.routeId,
    });
    if (!route)
      throw validationError([
        { fieldName: "routeId", errorCode: "INVALID", errorDisplay: "No saved route of this app has this id." },
      ]);
    return { network: networkById(route.network)!, geometry: route.geometry, routeId: route.id, templateId: null };
  }
  if (input.templateId !== undefined) {
    const template = findTemplate(input.templateId);
    if (!template)
      throw validationError([
        {
          fieldName: "templateId",
          errorCode: "INVALID",
          errorDisplay: `No such template; GET /simulation/template/ lists them.`,
        },
      ]);
    return { ...templateWay(template), routeId: null, templateId: template.id };
  }
  return { ...wayFromRequest(input), routeId: null, templateId: null };
}

export async function startSimulation(principal: Principal, vehicleRef: string, input: SimulationInput) {
  assertSandbox(principal.environment);
  const vehicle = await getVisibleVehicle(principal, vehicleRef);
  const way = await resolveWay(principal, input);
  const events: InjectedEvent[] = (input.events ?? []).map((e) => ({
    at: e.at,
    key: e.key,
    value: e.value ?? DEFAULT_EVENT_VALUE[e.key] ?? "1",
  }));
  const seed = input.seed ?? randomSeed();
  const collectionPeriod = input.collectionPeriod ?? 60;
  // The odometer starts from the vehicle's mileage now, as a device's would.
  const params = {
    events,
    lowBattery: input.lowBattery ?? false,
    engineData: input.engineData ?? true,
    fuelLevel: input.fuelLevel ?? null,
    odometer: vehicle.mileage,
  };
  // A real-time run starts now, to the millisecond (its data sets carry whole seconds); an
  // instant one on a whole second.
  const now = Math.floor(Date.now() / 1000) * 1000;
  let startAt = new Date();
  let trip: ReturnType<typeof generateTrip> | null = null;
  if (input.mode === "instant") {
    trip = generateTrip(way.geometry, { collectionPeriod, seed, ...params, fuelLevel: params.fuelLevel ?? undefined });
    startAt = input.startTime ?? new Date(now - trip.durationSeconds * 1000);
    if (startAt.getTime() % 1000 !== 0) startAt = new Date(Math.floor(startAt.getTime() / 1000) * 1000);
    if (startAt.getTime() + trip.durationSeconds * 1000 > Date.now()) {
      throw validationError([
        {
          fieldName: "startTime",
          errorCode: "INVALID",
          errorDisplay: `The trip takes ${trip.durationSeconds} s and would end in the future; start it at least that long ago.`,
        },
      ]);
    }
  }

  let run: RunRow;
  try {
    run = await insertRun(db(), {
      environment: principal.environment,
      vehicleId: vehicle.id,
      appId: principal.appId,
      credentialId: principal.credentialId,
      clientId: principal.clientId,
      accountId: principal.kind === "user" ? principal.accountId : null,
      routeId: way.routeId,
      templateId: way.templateId,
      network: way.network.id,
      geometry: way.geometry,
      lengthMeters: routeLength(way.geometry),
      mode: input.mode,
      status: "running",
      speedUp: input.speedUp ?? 1,
      collectionPeriod,
      seed,
      repeat: input.repeat ?? false,
      params,
      lapStartedAt: startAt,
      nextDueAt: input.mode === "realtime" ? startAt : null,
    });
  } catch (error) {
    if (uniqueViolation(error) === "simulation_runs_vehicle_running_key") throw alreadyRunning();
    throw error;
  }
  if (!trip) return serializeRun(run);
  return serializeRun(await backfill(run, trip, principal));
}

// Instant mode: the whole trip at once, as batches of up to 500 through the device ingest path.
async function backfill(run: RunRow, trip: ReturnType<typeof generateTrip>, principal: Principal): Promise<RunRow> {
  const start = run.lapStartedAt.getTime();
  const sets = trip.samples.map((s) => toDataSet(s, new Date(start + s.offset * 1000)));
  let tripId: number | null = null;
  let posted = 0;
  try {
    for (let i = 0; i < sets.length; i += MAX_BATCH) {
      const stored = await ingestDataSets(principal, String(run.vehicleId), sets.slice(i, i + MAX_BATCH));
      posted += stored.length;
      tripId = stored.findLast((s) => s.tripId !== null)?.tripId ?? tripId;
    }
  } catch (error) {
    await updateRun(db(), {
      id: run.id,
      values: {
        status: "stopped",
        stopReason: "Posting the data sets failed.",
        dataSetCount: posted,
        tripId,
        endedAt: new Date(),
      },
    });
    throw error;
  }
  return (await updateRun(db(), {
    id: run.id,
    values: {
      status: "finished",
      progress: 1,
      dataSetCount: posted,
      tripId,
      nextIndex: sets.length,
      endedAt: new Date(),
    },
  }))!;
}

export async function listSimulations(
  principal: Principal,
  vehicleRef: string,
  opts: { page: Page; order: "asc" | "desc" },
) {
  assertSandbox(principal.environment);
  const vehicle = await getVisibleVehicle(principal, vehicleRef);
  const { rows, total } = await listRuns(db(), { vehicleId: vehicle.id, ...opts });
  return { items: rows.map(serializeRun), total };
}

export async function getSimulation(principal: Principal, vehicleRef: string, runId: number) {
  assertSandbox(principal.environment);
  const vehicle = await getVisibleVehicle(principal, vehicleRef);
  const run = await findRun(db(), { vehicleId: vehicle.id, id: runId });
  if (!run) throw notFound("simulation");
  return serializeRun(run);
}

/** Stops a run (a finished or stopped one stays as it is). A real-time run parks where it is. */
export async function stopSimulation(principal: Principal, vehicleRef: string, runId: number) {
  assertSandbox(principal.environment);
  const vehicle = await getVisibleVehicle(principal, vehicleRef);
  const stopped = await stopRun(db(), {
    vehicleId: vehicle.id,
    id: runId,
    reason: `Stopped by ${principal.clientId}.`,
  });
  if (stopped) return;
  if (!(await findRun(db(), { vehicleId: vehicle.id, id: runId }))) throw notFound("simulation");
}

// Saved routes belong to the app (either of its tokens), in one environment.

export async function createSavedRoute(principal: Principal, input: SavedRouteInput) {
  assertSandbox(principal.environment);
  const way = wayFromRequest(input);
  const row = await insertRoute(db(), {
    environment: principal.environment,
    appId: principal.appId,
    name: input.name,
    network: way.network.id,
    geometry: way.geometry,
    lengthMeters: routeLength(way.geometry),
  });
  return serializeRoute(row);
}

export async function listSavedRoutes(principal: Principal, opts: { page: Page; order: "asc" | "desc" }) {
  assertSandbox(principal.environment);
  const { rows, total } = await listRoutes(db(), {
    environment: principal.environment,
    appId: principal.appId,
    ...opts,
  });
  return { items: rows.map(serializeRoute), total };
}

export async function getSavedRoute(principal: Principal, id: number) {
  assertSandbox(principal.environment);
  const row = await findRoute(db(), { environment: principal.environment, appId: principal.appId, id });
  if (!row) throw notFound("route");
  return serializeRoute(row);
}

export async function deleteSavedRoute(principal: Principal, id: number) {
  assertSandbox(principal.environment);
  if (!(await deleteRoute(db(), { environment: principal.environment, appId: principal.appId, id })))
    throw notFound("route");
}

export function listTemplates(principal: Principal) {
  assertSandbox(principal.environment);
  return TEMPLATES.map((t) => {
    const way = templateWay(t);
    return serializeTemplate(t, way.geometry, routeLength(way.geometry));
  });
}

export function getTemplate(principal: Principal, id: string) {
  assertSandbox(principal.environment);
  const template = findTemplate(id);
  if (!template) throw notFound("template");
  const way = templateWay(template);
  return serializeTemplate(template, way.geometry, routeLength(way.geometry));
}
