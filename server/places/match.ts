import { pointInPolygon, type LatLng } from "@/common/geo/polygon";
import { haversineMiles } from "@/common/driver/trip-stats";
import type { PlaceShape } from "./schemas";

// Which of the driver's places a point lies in: a circle when within its radius (great-circle
// distance), a polygon by pointInPolygon (its boundary counts as inside). Where places overlap
// ("Work" inside "City centre") the smallest wins: it says more about where the car was.

const METRES_PER_MILE = 1609.344;

type Named = { name: string; shape: PlaceShape };

/** Square metres, roughly: enough to order places by size. */
function area(shape: PlaceShape): number {
  if (shape.kind === "circle") return Math.PI * shape.radius ** 2;
  const ring = shape.polygon;
  const mPerDeg = 111_320;
  const k = Math.cos((ring.reduce((s, p) => s + p.latitude, 0) / ring.length) * (Math.PI / 180));
  let twice = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++)
    twice += ring[j]!.longitude * k * ring[i]!.latitude - ring[i]!.longitude * k * ring[j]!.latitude;
  return (Math.abs(twice) / 2) * mPerDeg ** 2;
}

function contains(shape: PlaceShape, point: LatLng): boolean {
  if (shape.kind === "polygon") return pointInPolygon(point, shape.polygon);
  const { latitude, longitude } = shape.center;
  return haversineMiles(latitude, longitude, point.latitude, point.longitude) * METRES_PER_MILE <= shape.radius;
}

/** The name of the smallest place holding the point, or null (no point, or in none). */
export function placeAt(places: readonly Named[], point: LatLng | null | undefined): string | null {
  if (!point) return null;
  let best: { name: string; area: number } | null = null;
  for (const p of places) {
    if (!contains(p.shape, point)) continue;
    const a = area(p.shape);
    if (!best || a < best.area) best = { name: p.name, area: a };
  }
  return best?.name ?? null;
}

/** The places a trip starts and ends in; null when it touches none (the lists show nothing then). */
export type TripEnds = { from: string | null; to: string | null };

export function tripEnds(
  places: readonly Named[],
  start: LatLng | null | undefined,
  end: LatLng | null | undefined,
): TripEnds | null {
  const from = placeAt(places, start);
  const to = placeAt(places, end);
  return from === null && to === null ? null : { from, to };
}
