import { closedRing } from "./rings";
import { labelOf, type Candidate } from "./candidates";
import type { PlaceOut } from "./schemas";

// Places as GeoJSON (RFC 7946): a FeatureCollection with one Feature per place, the name in
// `properties.name`. A polygon is a Polygon of one closed ring; GeoJSON has no circle, so a circle
// is a Point at its centre with `properties.radius` in metres, the convention of Leaflet-Geoman,
// Mapbox and others (docs/decisions/0148-circles-in-geojson-and-kml.md). Reading takes the same,
// from a FeatureCollection or a single Feature.

type Position = [number, number];
type Feature = {
  type: "Feature";
  properties: { name: string; radius?: number };
  geometry: { type: "Point"; coordinates: Position } | { type: "Polygon"; coordinates: Position[][] };
};

export function placesToGeoJson(places: PlaceOut[]): string {
  const features: Feature[] = places.map(({ name, shape }) =>
    shape.kind === "circle"
      ? {
          type: "Feature",
          properties: { name, radius: shape.radius },
          geometry: { type: "Point", coordinates: [shape.center.longitude, shape.center.latitude] },
        }
      : {
          type: "Feature",
          properties: { name },
          geometry: {
            type: "Polygon",
            coordinates: [closedRing(shape.polygon).map((p): Position => [p.longitude, p.latitude])],
          },
        },
  );
  return JSON.stringify({ type: "FeatureCollection", features }, null, 2) + "\n";
}

const record = (value: unknown): Record<string, unknown> | null =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

/** A [longitude, latitude(, altitude)] position as a point; anything else is left for the schema to refuse. */
const point = (position: unknown) =>
  Array.isArray(position) && position.length >= 2
    ? { latitude: position[1], longitude: position[0] }
    : { latitude: undefined, longitude: undefined };

// Names as the common editors write them: geojson.io and QGIS `name`, some exports `Name` or `title`.
const nameOf = (properties: Record<string, unknown>) => properties.name ?? properties.Name ?? properties.title;

function candidateOf(feature: unknown, index: number): Candidate {
  const f = record(feature);
  const properties = record(f?.properties) ?? {};
  const name = nameOf(properties);
  const label = labelOf(index, name);
  if (f?.type !== "Feature") return { label, problem: "is not a GeoJSON Feature." };
  const geometry = record(f.geometry);
  if (name === undefined || name === null) return { label, problem: "has no name (properties.name)." };
  switch (geometry?.type) {
    case "Point": {
      const radius = properties.radius;
      if (radius === undefined)
        return { label, problem: "is a Point without properties.radius (metres): a place is a circle or a polygon." };
      return { label, place: { name, shape: { kind: "circle", center: point(geometry.coordinates), radius } } };
    }
    case "Polygon": {
      const rings = Array.isArray(geometry.coordinates) ? geometry.coordinates : [];
      if (rings.length !== 1)
        return { label, problem: "is a Polygon with holes (or without a ring): places have one ring." };
      const ring = Array.isArray(rings[0]) ? (rings[0] as unknown[]) : [];
      return { label, place: { name, shape: { kind: "polygon", polygon: ring.map(point) } } };
    }
    default:
      return {
        label,
        problem: `is a ${String(geometry?.type ?? "feature without geometry")}: a place is a circle or a polygon.`,
      };
  }
}

/** The file's features as candidates; null when the JSON is not GeoJSON with features. */
export function geoJsonCandidates(json: unknown): Candidate[] | null {
  const root = record(json);
  if (root?.type === "FeatureCollection" && Array.isArray(root.features)) return root.features.map(candidateOf);
  if (root?.type === "Feature") return [candidateOf(root, 0)];
  return null;
}
