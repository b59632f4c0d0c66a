import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import PathFinderImport from "geojson-path-finder";
import type { Feature, FeatureCollection, LineString, Point } from "geojson";
import { env } from "@/server/platform/env";
import { logger } from "@/server/platform/log";
import { distance, type LonLat } from "./geo";
import type { RouteGeometry } from "./model";
import { MAX_SNAP_METERS, NETWORKS, type Network, type NetworkId } from "./networks";
import { isOneWay, speedLimitMph, stopChance } from "./roads";

// Routing on the OSM road networks: one graph per network, built lazily on first use and kept for
// the life of the process. Edge weight is travel time (length / speed limit), honouring one-way
// streets. Given points snap to the nearest road vertex (a grid index over every vertex).

// Under tsx (Node's CommonJS interop) the default import is the module object; bundled by Next.js
// (the package's ESM build) it is the class.
const PathFinder = ((PathFinderImport as unknown as { default?: typeof PathFinderImport }).default ??
  PathFinderImport) as typeof PathFinderImport;
type PathFinder<E, P extends Record<string, unknown>> = PathFinderImport<E, P>;

type Props = { highway?: string; maxspeed?: string; oneway?: string; junction?: string; name?: string };
type SegmentInfo = { limitMph: number; stop: number };

export type Graph = {
  network: Network;
  finder: PathFinder<unknown, Props>;
  /** "lonE5,latE5|lonE5,latE5" (both directions) → the segment's limit and stop chance. */
  segments: Map<string, SegmentInfo>;
  /** Vertices where three or more road segments meet. */
  junctions: Set<string>;
  cells: Map<string, LonLat[]>;
  buildMs: number;
  heapBytes: number;
  vertices: number;
};

const CELL = 0.005; // degrees, about 550 m × 420 m here
const keyOf = (c: LonLat) => `${Math.round(c[0] * 1e5)},${Math.round(c[1] * 1e5)}`;
const cellOf = (lon: number, lat: number) => `${Math.floor(lon / CELL)}:${Math.floor(lat / CELL)}`;

// Kept on globalThis: `npm start` runs the demo seed and Next.js's separately bundled route
// modules in one process, and each graph is about 110 MB of heap: build it once per process.
const graphsKey = Symbol.for("wayline.simulator.graphs");
const graphs: Map<NetworkId, Graph> = ((globalThis as Record<symbol, unknown>)[graphsKey] ??= new Map()) as Map<
  NetworkId,
  Graph
>;

export function roadsDir(): string {
  return env().roadsDir;
}

// A network is its GeoJSON file, or the same gzipped (as the repository ships them: 0.6 MB
// instead of 3.1 MB), decompressed in memory: the graph is built once per process anyway.
export function readNetwork(network: Network, dir = roadsDir()): string {
  const file = path.join(dir, network.file);
  if (fs.existsSync(file)) return fs.readFileSync(file, "utf8");
  if (fs.existsSync(`${file}.gz`)) return zlib.gunzipSync(fs.readFileSync(`${file}.gz`)).toString("utf8");
  throw new Error(
    `Road network ${file}(.gz) is missing: the simulator reads OpenStreetMap data from ROADS_DIR (default server/simulator/road-networks).`,
  );
}

function build(network: Network): Graph {
  const started = performance.now();
  const heapBefore = process.memoryUsage().heapUsed;
  const data = JSON.parse(readNetwork(network)) as FeatureCollection<LineString, Props>;

  const segments = new Map<string, SegmentInfo>();
  const degree = new Map<string, number>();
  const cells = new Map<string, LonLat[]>();
  for (const feature of data.features) {
    const props = feature.properties ?? {};
    const info = { limitMph: speedLimitMph(props.highway, props.maxspeed), stop: stopChance(props.highway) };
    const coords = feature.geometry.coordinates as LonLat[];
    coords.forEach((c, i) => {
      const k = keyOf(c);
      const ends = (i > 0 ? 1 : 0) + (i < coords.length - 1 ? 1 : 0);
      if (!degree.has(k)) {
        const cell = cellOf(c[0], c[1]);
        const list = cells.get(cell) ?? [];
        list.push(c);
        cells.set(cell, list);
      }
      degree.set(k, (degree.get(k) ?? 0) + ends);
      if (i > 0) {
        const p = keyOf(coords[i - 1]!);
        segments.set(`${p}|${k}`, info);
        segments.set(`${k}|${p}`, info);
      }
    });
  }
  const junctions = new Set([...degree].filter(([, d]) => d >= 3).map(([k]) => k));

  const hours = (a: LonLat, b: LonLat, p: Props) =>
    distance(a, b) / 1000 / (speedLimitMph(p.highway, p.maxspeed) * 1.609344);
  const finder = new PathFinder<unknown, Props>(data, {
    weight: (a, b, p) => {
      const w = hours(a as LonLat, b as LonLat, p);
      if (p.oneway === "-1") return { forward: 0, backward: w };
      return isOneWay(p) ? { forward: w, backward: 0 } : w;
    },
  });
  const graph: Graph = {
    network,
    finder,
    segments,
    junctions,
    cells,
    buildMs: Math.round(performance.now() - started),
    heapBytes: Math.max(0, process.memoryUsage().heapUsed - heapBefore),
    vertices: degree.size,
  };
  logger.info(
    {
      network: network.id,
      ms: graph.buildMs,
      heapMiB: Math.round(graph.heapBytes / 2 ** 20),
      vertices: graph.vertices,
    },
    "simulator routing graph built",
  );
  return graph;
}

export function graphFor(network: Network): Graph {
  let graph = graphs.get(network.id);
  if (!graph) {
    graph = build(network);
    graphs.set(network.id, graph);
  }
  return graph;
}

export const networkById = (id: string) => NETWORKS.find((n) => n.id === id);

/** The nearest road vertex within MAX_SNAP_METERS, or null. */
export function snap(graph: Graph, point: LonLat): LonLat | null {
  const cx = Math.floor(point[0] / CELL);
  const cy = Math.floor(point[1] / CELL);
  let best: LonLat | null = null;
  let bestDistance = Infinity;
  for (let ring = 0; ring <= 2; ring++) {
    for (let x = cx - ring; x <= cx + ring; x++) {
      for (let y = cy - ring; y <= cy + ring; y++) {
        if (Math.max(Math.abs(x - cx), Math.abs(y - cy)) !== ring) continue;
        for (const c of graph.cells.get(`${x}:${y}`) ?? []) {
          const d = distance(point, c);
          if (d < bestDistance) {
            bestDistance = d;
            best = c;
          }
        }
      }
    }
    // A vertex found within the rings searched so far cannot be beaten by a farther ring once the
    // ring's inner edge is farther than it (a ring is at least ring × ~420 m away).
    if (best && bestDistance < ring * 400) break;
  }
  return best && bestDistance <= MAX_SNAP_METERS ? best : null;
}

const pointFeature = (c: LonLat): Feature<Point> => ({
  type: "Feature",
  properties: {},
  geometry: { type: "Point", coordinates: c },
});

/** The fastest road path through the given (already snapped) vertices, or null when none exists. */
export function routeThrough(graph: Graph, stops: LonLat[]): RouteGeometry | null {
  const points: LonLat[] = [];
  for (let i = 1; i < stops.length; i++) {
    if (keyOf(stops[i - 1]!) === keyOf(stops[i]!)) continue;
    const found = graph.finder.findPath(pointFeature(stops[i - 1]!), pointFeature(stops[i]!));
    if (!found) return null;
    const leg = found.path as LonLat[];
    points.push(...(points.length ? leg.slice(1) : leg));
  }
  const deduped = points.filter((p, i) => i === 0 || keyOf(p) !== keyOf(points[i - 1]!));
  if (deduped.length < 2) return null;
  const limitsMph: number[] = [];
  const junctions: [number, number][] = [];
  for (let i = 1; i < deduped.length; i++) {
    const info = graph.segments.get(`${keyOf(deduped[i - 1]!)}|${keyOf(deduped[i]!)}`);
    limitsMph.push(info?.limitMph ?? 25);
    if (i < deduped.length - 1 && graph.junctions.has(keyOf(deduped[i]!))) junctions.push([i, info?.stop ?? 0.2]);
  }
  return { points: deduped.map((p) => [p[0], p[1]] as LonLat), limitsMph, junctions };
}
