import type { LatLng } from "@/common/geo/polygon";

// Rings as files write them: closed (GeoJSON and KML repeat the first position at the end), and a
// circle drawn as a polygon for the viewers that know no circle (KML).

export const closedRing = <T extends LatLng>(ring: readonly T[]): T[] => (ring.length > 0 ? [...ring, ring[0]!] : []);

const EARTH_RADIUS_M = 6_371_008.8;
const rad = (deg: number) => (deg * Math.PI) / 180;
const deg = (r: number) => (r * 180) / Math.PI;

/** `sides` points on the circle (great-circle destinations from the centre), open, counter-clockwise. */
export function circleRing(center: LatLng, radiusM: number, sides = 64): LatLng[] {
  const lat1 = rad(center.latitude);
  const lon1 = rad(center.longitude);
  const d = radiusM / EARTH_RADIUS_M;
  const ring: LatLng[] = [];
  for (let i = 0; i < sides; i++) {
    const bearing = (2 * Math.PI * (sides - i)) / sides;
    const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(bearing));
    const lon2 =
      lon1 +
      Math.atan2(Math.sin(bearing) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
    ring.push({ latitude: round(deg(lat2)), longitude: round(((deg(lon2) + 540) % 360) - 180) });
  }
  return ring;
}

/** Seven decimals: about a centimetre, as much as a drawn place means. */
const round = (v: number) => Math.round(v * 1e7) / 1e7;
