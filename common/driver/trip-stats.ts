// Totals of a replayed trip, from its track. Plain functions: the replay page shows them and the
// unit tests pin them down.

export type Track = {
  /** Epoch milliseconds of each point. */
  t: number[];
  lat: number[];
  lon: number[];
  /** mph as the device reported it (GEN_SPEED), or -1 where the data set had none. */
  speed: number[];
};

export type TripTotals = {
  distanceMiles: number;
  durationMs: number;
  movingMs: number;
  stoppedMs: number;
  maxSpeedMph: number | null;
  /** Distance over moving time: how fast the vehicle went while it went. */
  averageSpeedMph: number | null;
};

const EARTH_RADIUS_MILES = 3958.8;
const rad = (deg: number) => (deg * Math.PI) / 180;

export function haversineMiles(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = rad(lat2 - lat1);
  const dLon = rad(lon2 - lon1);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Below this a vehicle counts as standing (GPS jitter at a red light is a few mph at most). */
const MOVING_MPH = 2;

// A segment between two points is moving when the speed reported at its end is at least
// MOVING_MPH, or, without a reported speed, when the distance covered over its time is.
// The trip's duration runs from its start to its end (or to its last point while it is open);
// what is not moving is stopped.
export function tripTotals(track: Track, span: { startMs: number; endMs: number | null }): TripTotals {
  const n = track.t.length;
  let distance = 0;
  let moving = 0;
  let maxReported = -1;
  let maxDerived = -1;
  for (let i = 0; i < n; i++) {
    if (track.speed[i]! > maxReported) maxReported = track.speed[i]!;
    if (i === 0) continue;
    const d = haversineMiles(track.lat[i - 1]!, track.lon[i - 1]!, track.lat[i]!, track.lon[i]!);
    const dt = track.t[i]! - track.t[i - 1]!;
    distance += d;
    const derived = dt > 0 ? d / (dt / 3_600_000) : 0;
    if (dt > 0 && derived > maxDerived) maxDerived = derived;
    const speed = track.speed[i]! >= 0 ? track.speed[i]! : derived;
    if (speed >= MOVING_MPH) moving += Math.max(0, dt);
  }
  const end = span.endMs ?? (n > 0 ? track.t[n - 1]! : span.startMs);
  const duration = Math.max(0, end - span.startMs, n > 1 ? track.t[n - 1]! - track.t[0]! : 0);
  moving = Math.min(moving, duration);
  const maxSpeed = maxReported >= 0 ? maxReported : maxDerived >= 0 ? maxDerived : null;
  return {
    distanceMiles: distance,
    durationMs: duration,
    movingMs: moving,
    stoppedMs: duration - moving,
    maxSpeedMph: maxSpeed,
    averageSpeedMph: moving > 0 ? distance / (moving / 3_600_000) : null,
  };
}

/** The index of the last point at or before `time` (binary search; t is ascending). */
export function pointAt(t: number[], time: number): number {
  let lo = 0;
  let hi = t.length - 1;
  if (hi < 0 || time <= t[0]!) return 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (t[mid]! <= time) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
