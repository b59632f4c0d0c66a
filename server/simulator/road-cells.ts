import type { FeatureCollection, LineString, MultiLineString } from "geojson";
import { NETWORKS } from "./networks";
import { readNetwork } from "./routing";

// The maps' offline background (docs/driver-site.md#map-tiles): when tiles cannot load, the maps
// draw the road networks the repository ships (the simulator's), fetched a grid cell at a time.
// Two levels keep it light: level 0 (zoomed out) has the major roads only, in cells of 0.1°,
// simplified to about 20 m and rounded to 4 decimals; level 1 (street level) has every road, in
// cells of 0.02°, simplified to about 2 m and rounded to 5 decimals. A cell is two MultiLineStrings
// (major, minor), built once per process on first request and kept as its JSON text; the answer
// is cacheable, since the data only changes with a deploy. Lines that cross a cell's edge are in
// each cell they touch, whole (drawn twice, never cut).

const ROAD_LEVELS = [
  { cell: 0.1, tolerance: 0.0002, decimals: 4, majorOnly: true },
  { cell: 0.02, tolerance: 0.00002, decimals: 5, majorOnly: false },
] as const;

const MAJOR = /^(motorway|trunk|primary|secondary|tertiary)(_link)?$/;

type Coord = [number, number];
type Road = { major: boolean; coords: Coord[]; bbox: [number, number, number, number] };
type Level = { roads: Map<string, Road[]>; cells: Map<string, string> };

// Kept on globalThis like the routing graphs: Next.js bundles route modules separately.
const key = Symbol.for("wayline.road-cells");
const levels: Map<number, Level> = ((globalThis as Record<symbol, unknown>)[key] ??= new Map()) as Map<number, Level>;

/** Douglas–Peucker on degrees (longitude scaled by the latitude's cosine, so both axes are alike). */
function simplify(points: Coord[], tolerance: number): Coord[] {
  if (points.length <= 2) return points;
  const scale = Math.cos((points[0]![1] * Math.PI) / 180);
  const keep = new Uint8Array(points.length);
  keep[0] = keep[points.length - 1] = 1;
  const stack: [number, number][] = [[0, points.length - 1]];
  while (stack.length) {
    const [a, b] = stack.pop()!;
    const [ax, ay] = [points[a]![0] * scale, points[a]![1]];
    const [bx, by] = [points[b]![0] * scale, points[b]![1]];
    const dx = bx - ax;
    const dy = by - ay;
    const len = Math.hypot(dx, dy) || 1e-12;
    let far = -1;
    let farDist = tolerance;
    for (let i = a + 1; i < b; i++) {
      const d = Math.abs(dy * (points[i]![0] * scale - ax) - dx * (points[i]![1] - ay)) / len;
      if (d > farDist) {
        far = i;
        farDist = d;
      }
    }
    if (far >= 0) {
      keep[far] = 1;
      stack.push([a, far], [far, b]);
    }
  }
  return points.filter((_, i) => keep[i]);
}

const cellKey = (x: number, y: number) => `${x}:${y}`;
const EMPTY = JSON.stringify({ type: "FeatureCollection", features: [] });

function buildLevel(level: number): Level {
  const spec = ROAD_LEVELS[level]!;
  const factor = 10 ** spec.decimals;
  const round = (v: number) => Math.round(v * factor) / factor;
  const roads = new Map<string, Road[]>();
  for (const network of NETWORKS) {
    let data: FeatureCollection<LineString, { highway?: string }>;
    try {
      data = JSON.parse(readNetwork(network)) as typeof data;
    } catch {
      continue; // a network missing from ROADS_DIR draws nothing; the simulator says why
    }
    for (const feature of data.features) {
      const major = MAJOR.test(feature.properties?.highway ?? "");
      if (spec.majorOnly && !major) continue;
      const coords = simplify(feature.geometry.coordinates as Coord[], spec.tolerance).map(
        ([lon, lat]) => [round(lon), round(lat)] as Coord,
      );
      const lons = coords.map((c) => c[0]);
      const lats = coords.map((c) => c[1]);
      const road: Road = {
        major,
        coords,
        bbox: [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)],
      };
      const [x0, y0, x1, y1] = [
        Math.floor(road.bbox[0] / spec.cell),
        Math.floor(road.bbox[1] / spec.cell),
        Math.floor(road.bbox[2] / spec.cell),
        Math.floor(road.bbox[3] / spec.cell),
      ];
      for (let x = x0; x <= x1; x++)
        for (let y = y0; y <= y1; y++) {
          const list = roads.get(cellKey(x, y)) ?? [];
          list.push(road);
          roads.set(cellKey(x, y), list);
        }
    }
  }
  return { roads, cells: new Map() };
}

/**
 * The roads of one grid cell as the JSON text of a GeoJSON FeatureCollection: a MultiLineString of
 * the major roads and one of the others (`properties.kind`), empty outside the shipped networks.
 */
export function roadCell(level: number, x: number, y: number): string {
  let built = levels.get(level);
  if (!built) {
    built = buildLevel(level);
    levels.set(level, built);
  }
  const k = cellKey(x, y);
  const cached = built.cells.get(k);
  if (cached !== undefined) return cached;
  const roads = built.roads.get(k);
  // Only cells with roads are kept: any x and y may be asked for, and empty ones are all alike.
  if (!roads) return EMPTY;
  const feature = (kind: "major" | "minor") => ({
    type: "Feature" as const,
    properties: { kind },
    geometry: {
      type: "MultiLineString" as const,
      coordinates: roads.filter((r) => r.major === (kind === "major")).map((r) => r.coords),
    } satisfies MultiLineString,
  });
  const collection = {
    type: "FeatureCollection",
    features: [feature("major"), feature("minor")].filter((f) => f.geometry.coordinates.length > 0),
  };
  const text = JSON.stringify(collection);
  built.cells.set(k, text);
  return text;
}
