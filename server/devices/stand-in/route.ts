import fs from "node:fs";
import { findTemplate, polylineGeometry, templateWay } from "@/server/simulator/geometry";
import type { RouteGeometry } from "@/server/simulator/model";
import { TEMPLATES } from "@/server/simulator/templates";
import { gpxPoints } from "./gpx";

// Where the stand-in drives: one of the simulator's templates, routed on its road networks, or the
// points of a GPX file driven as a polyline (the simulator's rule for a partner's own route).

export type StandInRoute = { name: string; geometry: RouteGeometry };

/** `--route`: a template id, or a path ending in .gpx. Throws an Error that says what is wrong. */
export function standInRoute(route: string): StandInRoute {
  if (/\.gpx$/i.test(route)) {
    let geometry: RouteGeometry;
    try {
      geometry = polylineGeometry(gpxPoints(fs.readFileSync(route, "utf8")));
    } catch (error) {
      throw new Error(`--route ${route}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (geometry.points.length < 2) throw new Error(`--route ${route}: fewer than two distinct points`);
    return { name: route, geometry };
  }
  const template = findTemplate(route);
  if (!template)
    throw new Error(
      `--route ${route}: not a .gpx file, nor a template of the simulator's (${TEMPLATES.map((t) => t.id).join(", ")})`,
    );
  return { name: template.name, geometry: templateWay(template).geometry };
}
