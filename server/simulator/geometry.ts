import { validationError, type FieldError } from "@/common/http/errors";
import { distance, type LonLat } from "./geo";
import type { RouteGeometry } from "./model";
import { coveredAreas, MAX_SNAP_METERS, networkContaining, type Network } from "./networks";
import { graphFor, networkById, routeThrough, snap } from "./routing";
import type { PointIn } from "./schemas";
import { TEMPLATES, type Template } from "./templates";

// Turning what a partner asks for (start and end, a polyline, a template) into the geometry the
// trip model drives on. Every problem is a 400 with the field that caused it.

export type Way = { network: Network; geometry: RouteGeometry };

/** Speed limit assumed along an explicit polyline, which carries no road data. */
const POLYLINE_LIMIT_MPH = 30;

const invalid = (fieldName: string, errorDisplay: string): FieldError => ({
  fieldName,
  errorCode: "INVALID",
  errorDisplay,
});
const outside = (field: string) => invalid(field, `Outside the simulator's covered area. Covered: ${coveredAreas()}.`);

const lonLat = (p: PointIn): LonLat => [p.longitude, p.latitude];

/** The fastest road route through the named points, each snapped to the nearest road. */
export function routeBetween(points: { field: string; point: PointIn }[]): Way {
  const network = networkContaining(points[0]!.point.longitude, points[0]!.point.latitude);
  if (!network)
    throw validationError([outside(points[0]!.field)], "The start is outside the simulator's covered area.");
  const errors: FieldError[] = [];
  for (const { field, point } of points.slice(1)) {
    const other = networkContaining(point.longitude, point.latitude);
    if (!other) errors.push(outside(field));
    else if (other.id !== network.id)
      errors.push(invalid(field, `Must be in the same area as ${points[0]!.field} (${network.name}).`));
  }
  if (errors.length) throw validationError(errors, "A point is outside the simulator's covered area.");

  const graph = graphFor(network);
  const snapped: LonLat[] = [];
  for (const { field, point } of points) {
    const vertex = snap(graph, lonLat(point));
    if (!vertex) errors.push(invalid(field, `No road within ${MAX_SNAP_METERS} m of this point.`));
    else snapped.push(vertex);
  }
  if (errors.length) throw validationError(errors, "A point is too far from any road.");
  const geometry = routeThrough(graph, snapped);
  if (!geometry)
    throw validationError(
      [invalid(points.at(-1)!.field, "No road route leads there from the start (one-way streets or a cut-off road).")],
      "No road route found.",
    );
  return { network, geometry };
}

/** A partner's own polyline, driven as given. */
export function explicitPolyline(route: PointIn[]): Way {
  const errors: FieldError[] = [];
  const network = networkContaining(route[0]!.longitude, route[0]!.latitude);
  route.forEach((p, i) => {
    const n = networkContaining(p.longitude, p.latitude);
    if (!n) errors.push(outside(`route.${i}`));
    else if (network && n.id !== network.id)
      errors.push(invalid(`route.${i}`, `Must be in the same area as route.0 (${network.name}).`));
  });
  if (!network || errors.length)
    throw validationError(
      errors.length ? errors : [outside("route.0")],
      "The route leaves the simulator's covered area.",
    );
  const geometry = polylineGeometry(route.map(lonLat));
  if (geometry.points.length < 2)
    throw validationError([invalid("route", "A route needs at least two distinct points.")]);
  return { network, geometry };
}

/**
 * A polyline driven as given, at POLYLINE_LIMIT_MPH throughout (it carries no road data), without
 * points within half a metre of the one before: fewer than two points left is no route.
 */
export function polylineGeometry(points: LonLat[]): RouteGeometry {
  const kept = points.filter((p, i, all) => i === 0 || distance(p, all[i - 1]!) > 0.5);
  return { points: kept, limitsMph: kept.slice(1).map(() => POLYLINE_LIMIT_MPH), junctions: [] };
}

export function wayFromRequest(input: { start?: PointIn; end?: PointIn; via?: PointIn[]; route?: PointIn[] }): Way {
  if (input.route) return explicitPolyline(input.route);
  return routeBetween([
    { field: "start", point: input.start! },
    ...(input.via ?? []).map((point, i) => ({ field: `via.${i}`, point })),
    { field: "end", point: input.end! },
  ]);
}

const waysKey = Symbol.for("wayline.simulator.templates");
const templateWays: Map<string, Way> = ((globalThis as Record<symbol, unknown>)[waysKey] ??= new Map()) as Map<
  string,
  Way
>;

export const findTemplate = (id: string): Template | undefined => TEMPLATES.find((t) => t.id === id);

/** A template's route, computed on first use and kept for the life of the process. */
export function templateWay(template: Template): Way {
  let way = templateWays.get(template.id);
  if (!way) {
    const network = networkById(template.network)!;
    const graph = graphFor(network);
    const stops = template.stops.map((s) => snap(graph, s));
    const geometry = stops.every(Boolean) ? routeThrough(graph, stops as LonLat[]) : null;
    if (!geometry) throw new Error(`template ${template.id} does not route on ${network.id}`);
    way = { network, geometry };
    templateWays.set(template.id, way);
  }
  return way;
}
