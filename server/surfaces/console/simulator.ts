import { z } from "zod";
import { db } from "@/db/client";
import { toFieldErrors } from "@/common/http/zod-errors";
import { ApiError, type FieldError } from "@/common/http/errors";
import { ATTRIBUTION } from "@/server/simulator/networks";
import { findRunById, recentRunsOf } from "@/server/simulator/queries";
import { savedRouteBody, simulationBody } from "@/server/simulator/schemas";
import { serializeRun } from "@/server/simulator/serialize";
import {
  createSavedRoute,
  getSimulation,
  listSavedRoutes,
  listTemplates,
  startSimulation,
  stopSimulation,
} from "@/server/simulator/service";
import { grantFor } from "@/server/grants/grant-view";
import type { LocationPrecision } from "@/common/oauth/grant-scope";
import { positionAt } from "@/common/oauth/location-precision";
import { getVisibleVehicle, listVisibleVehicles } from "@/server/vehicles/service";
import { notOwned } from "./errors";
import { consolePrincipal } from "./principal";

// The sandbox simulator in the console: everything goes through server/simulator/service.ts with
// the app's own principal, so the console starts, reads and stops exactly what the app's
// client-credentials token could (the same visibility, the same field errors, the same 403 outside
// the sandbox).

const RECENT_RUNS = 20;
/** The route drawn while a run is watched: enough points for the map, not the whole geometry. */
const MAX_DRAWN_POINTS = 1500;

/**
 * The route where the vehicle drives is where it will be: drawn at the precision the driver granted
 * the app, as every position the console shows (rounded under approximate, consecutive repeats
 * dropped; none under none).
 */
const drawn = (points: [number, number][], precision: LocationPrecision) => {
  if (precision === "none") return [];
  const step = Math.max(1, Math.ceil(points.length / MAX_DRAWN_POINTS));
  const kept = points.filter((_, i) => i % step === 0);
  if (kept.at(-1) !== points.at(-1)) kept.push(points.at(-1)!);
  const shown = kept.map(([longitude, latitude]) => positionAt({ latitude, longitude }, precision)!);
  return shown.filter(
    (p, i) => i === 0 || p.latitude !== shown[i - 1]!.latitude || p.longitude !== shown[i - 1]!.longitude,
  );
};

/** What the simulator page needs: the app's sandbox vehicles, its saved routes, the templates and the recent runs. */
export async function simulatorOverview(partnerUserId: number, appId: number) {
  const principal = await consolePrincipal(partnerUserId, appId, "sandbox");
  const [{ items: vehicles }, { items: routes }] = await Promise.all([
    listVisibleVehicles(principal, { limit: 500, offset: 0 }),
    listSavedRoutes(principal, { page: { limit: 100, offset: 0 }, order: "desc" }),
  ]);
  const templates = listTemplates(principal);
  const ids = vehicles.map((v) => v.vehicleId);
  const runs = await recentRunsOf(db(), { environment: "sandbox", vehicleIds: ids, limit: RECENT_RUNS });
  return {
    vehicles: vehicles.map((v) => ({ vehicleId: v.vehicleId, label: v.label ?? v.name, lastWaypoint: v.lastWaypoint })),
    routes,
    templates,
    runs: runs.map(serializeRun),
    attribution: templates[0]?.attribution ?? ATTRIBUTION,
  };
}

export type SimulatorOverview = Awaited<ReturnType<typeof simulatorOverview>>;

/** One run and where its vehicle is now, for the page's poll (every 2 s while its stream is down). */
export async function simulatorRunStatus(partnerUserId: number, appId: number, runId: number) {
  const { accountId: _accountId, ...status } = await watchedRun(partnerUserId, appId, runId);
  return status;
}

/** The same, with the account of the run's vehicle (whose position wake-ups the run's stream follows). */
export async function watchedRun(partnerUserId: number, appId: number, runId: number) {
  const principal = await consolePrincipal(partnerUserId, appId, "sandbox");
  const row = await findRunById(db(), { id: runId });
  if (!row) throw notOwned("simulation");
  try {
    const simulation = await getSimulation(principal, String(row.vehicleId), runId);
    const vehicle = await getVisibleVehicle(principal, String(row.vehicleId));
    // Where the vehicle is and will be, at the precision its driver granted the app (as its API shows it).
    const { location } = await grantFor(principal, vehicle.accountId);
    const position = positionAt(
      vehicle.lastLatitude !== null && vehicle.lastLongitude !== null
        ? { latitude: vehicle.lastLatitude, longitude: vehicle.lastLongitude }
        : null,
      location,
    );
    return { simulation, position, geometry: drawn(row.geometry.points, location), accountId: vehicle.accountId };
  } catch (error) {
    // Another app's vehicle or run: the same answer as an id that does not exist.
    if (error instanceof ApiError && error.status === 404) throw notOwned("simulation");
    throw error;
  }
}

const text = z.string().trim().max(64).default("");
const environment = z.enum(["sandbox", "production"], "Choose sandbox or production.").default("sandbox");

/** The start form: flat fields, mapped to the API's body (simulationBody) and parsed by it. */
export const simulatorForm = z.object({
  environment,
  vehicleId: z.string().trim().min(1, "Choose a vehicle.").max(64, "Choose a vehicle."),
  way: z.enum(["points", "route", "template"], "Choose how to drive."),
  startLatitude: text,
  startLongitude: text,
  endLatitude: text,
  endLongitude: text,
  routeId: text,
  templateId: text,
  mode: z.string().trim().max(20).default(""),
  speedUp: text,
  collectionPeriod: text,
  seed: text,
  lowBattery: z
    .literal("on")
    .optional()
    .transform((v) => v === "on"),
  /** JSON [{at, key}], written by the page's event editor. */
  events: z.string().max(20_000).default("[]"),
});
export type SimulatorForm = z.output<typeof simulatorForm>;

const point = (latitude: string, longitude: string) => (latitude || longitude ? { latitude, longitude } : undefined);

function parseEvents(raw: string): unknown {
  try {
    return JSON.parse(raw || "[]");
  } catch {
    throw new ApiError("VALIDATION", "Check the highlighted fields.", [
      { fieldName: "events", errorCode: "INVALID", errorDisplay: "The events could not be read." },
    ]);
  }
}

function apiBody(form: SimulatorForm): Record<string, unknown> {
  const set = (v: string) => (v === "" ? undefined : v);
  const events = parseEvents(form.events);
  const body: Record<string, unknown> = {
    mode: form.mode,
    start: form.way === "points" ? point(form.startLatitude, form.startLongitude) : undefined,
    end: form.way === "points" ? point(form.endLatitude, form.endLongitude) : undefined,
    routeId: form.way === "route" ? form.routeId : undefined,
    templateId: form.way === "template" ? form.templateId : undefined,
    speedUp: form.mode === "realtime" ? set(form.speedUp) : undefined,
    collectionPeriod: set(form.collectionPeriod),
    seed: set(form.seed),
    lowBattery: form.lowBattery,
    events: Array.isArray(events) && events.length === 0 ? undefined : events,
  };
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}

// The API's field names map onto the form's groups (start.latitude → start, events.2.at → events).
const formField = (name: string) =>
  /^(start|end|events|via|route)\b/.test(name) && name !== "routeId" ? name.split(".")[0]! : name;
const mapped = (errors: FieldError[]): FieldError[] => errors.map((e) => ({ ...e, fieldName: formField(e.fieldName) }));

async function withFormFields<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ApiError && error.status === 400)
      throw new ApiError("VALIDATION", "Check the highlighted fields.", mapped(error.fieldErrors));
    throw error;
  }
}

// Starts through the simulator service as the app would (POST /vehicle/{id}/simulation/). The
// console only offers sandbox vehicles; a production principal is refused by the service (403).
export async function startConsoleSimulation(partnerUserId: number, appId: number, form: SimulatorForm) {
  const principal = await consolePrincipal(partnerUserId, appId, form.environment);
  // A way with nothing chosen yet: the error goes where the partner chooses.
  if (form.way === "route" && !form.routeId)
    throw new ApiError("VALIDATION", "Check the highlighted fields.", [
      { fieldName: "routeId", errorCode: "REQUIRED", errorDisplay: "Choose a saved route." },
    ]);
  if (form.way === "template" && !form.templateId)
    throw new ApiError("VALIDATION", "Check the highlighted fields.", [
      { fieldName: "templateId", errorCode: "REQUIRED", errorDisplay: "Choose a template." },
    ]);
  const body = apiBody(form);
  const parsed = simulationBody.safeParse(body, { reportInput: true });
  if (!parsed.success)
    throw new ApiError("VALIDATION", "Check the highlighted fields.", mapped(toFieldErrors(parsed.error)));
  const run = await withFormFields(() => startSimulation(principal, form.vehicleId, parsed.data));
  return { runId: run.id, vehicleId: run.vehicleId, status: run.status };
}

export async function stopConsoleSimulation(partnerUserId: number, appId: number, vehicleId: number, runId: number) {
  const principal = await consolePrincipal(partnerUserId, appId, "sandbox");
  await stopSimulation(principal, String(vehicleId), runId);
}

export const savedRouteForm = z.object({
  name: z.string().trim().max(200).default(""),
  startLatitude: text,
  startLongitude: text,
  endLatitude: text,
  endLongitude: text,
});

/** Saves the clicked start and end as a route of the app (routed once, POST /simulation/route/). */
export async function saveConsoleRoute(partnerUserId: number, appId: number, form: z.output<typeof savedRouteForm>) {
  const principal = await consolePrincipal(partnerUserId, appId, "sandbox");
  const body = {
    name: form.name,
    start: point(form.startLatitude, form.startLongitude),
    end: point(form.endLatitude, form.endLongitude),
  };
  const parsed = savedRouteBody.safeParse(Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)), {
    reportInput: true,
  });
  if (!parsed.success)
    throw new ApiError("VALIDATION", "Check the highlighted fields.", mapped(toFieldErrors(parsed.error)));
  const route = await withFormFields(() => createSavedRoute(principal, parsed.data));
  return { routeId: route.id };
}
