import type { simulationRoutes, simulationRuns } from "@/db/schema";
import { formatDateTime } from "@/common/http/datetime";
import { METERS_PER_MILE } from "./geo";
import { isLoop, type RouteGeometry } from "./model";
import { ATTRIBUTION } from "./networks";
import type { SavedRouteOut, SimulationOut, TemplateOut } from "./schemas";
import type { Template } from "./templates";

// Public shapes of runs, saved routes and templates; internal columns (lease, principal) never leak.

type RunRow = typeof simulationRuns.$inferSelect;
type RouteRow = typeof simulationRoutes.$inferSelect;

const miles = (meters: number) => Math.round((meters / METERS_PER_MILE) * 100) / 100;
const geometryOut = (g: RouteGeometry) => g.points.map(([longitude, latitude]) => ({ latitude, longitude }));

export function serializeRun(r: RunRow): SimulationOut {
  return {
    id: r.id,
    vehicleId: r.vehicleId,
    mode: r.mode,
    status: r.status,
    stopReason: r.stopReason,
    progress: Math.round(r.progress * 1000) / 1000,
    dataSetCount: r.dataSetCount,
    tripId: r.tripId,
    routeLengthMiles: miles(r.lengthMeters),
    network: r.network,
    routeId: r.routeId,
    templateId: r.templateId,
    speedUp: r.speedUp,
    collectionPeriod: r.collectionPeriod,
    seed: r.seed,
    repeat: r.repeat,
    lap: r.lap,
    createdAt: formatDateTime(r.createdAt),
    endedAt: formatDateTime(r.endedAt),
    attribution: ATTRIBUTION,
  };
}

export function serializeRoute(r: RouteRow): SavedRouteOut {
  return {
    id: r.id,
    name: r.name,
    network: r.network,
    lengthMiles: miles(r.lengthMeters),
    loop: isLoop(r.geometry),
    geometry: geometryOut(r.geometry),
    createdAt: formatDateTime(r.createdAt),
    attribution: ATTRIBUTION,
  };
}

export function serializeTemplate(t: Template, geometry: RouteGeometry, lengthMeters: number): TemplateOut {
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    network: t.network,
    lengthMiles: miles(lengthMeters),
    loop: isLoop(geometry),
    geometry: geometryOut(geometry),
    attribution: ATTRIBUTION,
  };
}
