// Polygons on the globe, as partners' geofences and drivers' places draw them (docs/subscriptions.md#polygons).
//
// An edge runs straight in latitude/longitude, as on a flat map, and always the short way round: from
// lon 179 to lon -179 it crosses the antimeridian (2°), never the 358° the other way. Longitudes are
// unwrapped from the first vertex, so the ring becomes one planar polygon whose longitudes may leave
// [-180, 180] (179 → 181); a point is tested at its own longitude and at ±360° of it. A ring whose
// unwrapped longitudes come back 360° away from where they started goes round a pole: it encloses that
// pole, the one on its vertices' side of the equator (the smaller of the two pieces it cuts the globe
// into), and is closed over the pole as a band reaching latitude ±90. A point on an edge or a vertex
// (within about a millimetre) is inside: a fence drawn along a road keeps the cars on it.
// Pure and shared by the server and the browser (common/).

export type LatLng = { latitude: number; longitude: number };

type Point = { x: number; y: number }; // x: unwrapped longitude, y: latitude

/** Closer than this (degrees, about a millimetre) to an edge counts as on it. */
const ON_EDGE = 1e-8;

const same = (a: LatLng, b: LatLng) => a.latitude === b.latitude && a.longitude === b.longitude;

/** The ring without its closing point: [A, B, C, A] and [A, B, C] are the same polygon. */
export function normaliseRing<T extends LatLng>(polygon: readonly T[]): T[] {
  const ring = polygon.slice();
  while (ring.length > 1 && same(ring[0]!, ring[ring.length - 1]!)) ring.pop();
  return ring;
}

/** The longitude step from a to b the short way round, in (-180, 180]. */
const step = (from: number, to: number) => {
  const d = (((to - from) % 360) + 360) % 360;
  return d > 180 ? d - 360 : d;
};

type Planar = { points: Point[]; pole: 90 | -90 | null };

/**
 * The ring as one planar polygon: longitudes unwrapped from the first vertex (the ring's own n
 * points come first), and for a ring round a pole three more that close the band over it: the
 * first vertex again 360° away, then the pole above it and above the first.
 */
function planar(ring: readonly LatLng[]): Planar {
  const points: Point[] = [];
  let x = ring[0]!.longitude;
  for (let i = 0; i < ring.length; i++) {
    if (i > 0) x += step(ring[i - 1]!.longitude, ring[i]!.longitude);
    points.push({ x, y: ring[i]!.latitude });
  }
  const first = points[0]!;
  const back = x + step(ring[ring.length - 1]!.longitude, ring[0]!.longitude);
  if (Math.abs(back - first.x) < 180) return { points, pole: null };
  const meanLatitude = ring.reduce((sum, p) => sum + p.latitude, 0) / ring.length;
  const pole = meanLatitude >= 0 ? 90 : -90;
  points.push({ x: back, y: first.y }, { x: back, y: pole }, { x: first.x, y: pole });
  return { points, pole };
}

const cross = (o: Point, a: Point, b: Point) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);

function distanceToSegment(p: Point, a: Point, b: Point): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2));
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

/** Even-odd ray casting, with the edges themselves inside. */
function insidePlanar(p: Point, points: readonly Point[]): boolean {
  let inside = false;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const a = points[j]!;
    const b = points[i]!;
    if (distanceToSegment(p, a, b) <= ON_EDGE) return true;
    if (a.y > p.y !== b.y > p.y && p.x < a.x + ((p.y - a.y) * (b.x - a.x)) / (b.y - a.y)) inside = !inside;
  }
  return inside;
}

/**
 * Whether `point` lies inside `polygon` or on its boundary. The ring may be closed or open; fewer
 * than three distinct vertices enclose nothing but their own points and edges.
 */
export function pointInPolygon(point: LatLng, polygon: readonly LatLng[]): boolean {
  const ring = normaliseRing(polygon);
  if (ring.length === 0) return false;
  const { points, pole } = planar(ring);
  // At a pole every longitude is the same place.
  if (pole !== null && point.latitude === pole) return true;
  let min = Infinity;
  let max = -Infinity;
  for (const p of points) {
    min = Math.min(min, p.x);
    max = Math.max(max, p.x);
  }
  // The point's longitude, and each of its ±360° copies, that falls within the unwrapped ring.
  const first = point.longitude + 360 * Math.ceil((min - ON_EDGE - point.longitude) / 360);
  for (let x = first; x <= max + ON_EDGE; x += 360) {
    if (insidePlanar({ x, y: point.latitude }, points)) return true;
  }
  return false;
}

const orientation = (o: Point, a: Point, b: Point) => {
  const c = cross(o, a, b);
  // Collinear within rounding of coordinates of a few hundred degrees.
  return Math.abs(c) <= 1e-12 ? 0 : Math.sign(c);
};

const within = (p: Point, a: Point, b: Point) =>
  Math.min(a.x, b.x) <= p.x && p.x <= Math.max(a.x, b.x) && Math.min(a.y, b.y) <= p.y && p.y <= Math.max(a.y, b.y);

/** Whether segments ab and cd share a point, touching included. */
function segmentsMeet(a: Point, b: Point, c: Point, d: Point): boolean {
  const o1 = orientation(a, b, c);
  const o2 = orientation(a, b, d);
  const o3 = orientation(c, d, a);
  const o4 = orientation(c, d, b);
  if (o1 !== o2 && o3 !== o4) return true;
  return (
    (o1 === 0 && within(c, a, b)) ||
    (o2 === 0 && within(d, a, b)) ||
    (o3 === 0 && within(a, c, d)) ||
    (o4 === 0 && within(b, c, d))
  );
}

const shifted = (p: Point, dx: number): Point => ({ x: p.x + dx, y: p.y });

/**
 * Whether the ring crosses or touches itself: two edges that are not neighbours share a point, or
 * two neighbours fold back over each other (A → B → a point on AB). Closed or open; repeated
 * consecutive points are one vertex here (a validator reports them on their own). Edges are compared
 * at ±360° as well, so a ring round a pole or over the antimeridian is judged where it lies.
 */
export function selfIntersects(polygon: readonly LatLng[]): boolean {
  const ring = normaliseRing(normaliseRing(polygon).filter((p, i, all) => i === 0 || !same(p, all[i - 1]!)));
  if (ring.length < 3) return ring.length === 2; // a line there and back again
  const n = ring.length;
  const { points, pole } = planar(ring);
  // Edge i runs from vertex i to vertex i+1; the last one back to the first vertex, which for a
  // ring round a pole lies 360° on (points[n]), so the edges after it are shifted by as much.
  const seam = pole === null ? 0 : points[n]!.x - points[0]!.x;
  const vertex = (k: number) => (k < n ? points[k]! : shifted(points[k - n]!, seam));
  const edge = (i: number): [Point, Point] => [vertex(i), vertex(i + 1)];

  for (let i = 0; i < n; i++) {
    const [a, b] = edge(i);
    const c = vertex(i + 2);
    // Neighbours share b: they meet elsewhere only by running back along each other.
    if (orientation(a, b, c) === 0 && (b.x - a.x) * (c.x - b.x) + (b.y - a.y) * (c.y - b.y) < 0) return true;
    for (let j = i + 2; j < n; j++) {
      if (i === 0 && j === n - 1) continue; // neighbours through the first vertex
      const [c0, d0] = edge(j);
      for (const dx of [-360, 0, 360]) {
        if (segmentsMeet(a, b, shifted(c0, dx), shifted(d0, dx))) return true;
      }
    }
  }
  return false;
}
