import { describe, expect, it } from "vitest";
import { haversineMiles, pointAt, tripTotals, type Track } from "@/common/driver/trip-stats";

// The replay's totals: distance along the track, duration of the trip, moving and stopped time,
// top and average speed.

const MIN = 60_000;

function track(points: [minute: number, lat: number, lon: number, speed?: number][]): Track {
  return {
    t: points.map((p) => p[0] * MIN),
    lat: points.map((p) => p[1]),
    lon: points.map((p) => p[2]),
    speed: points.map((p) => p[3] ?? -1),
  };
}

describe("trip totals", () => {
  it("one degree of latitude is about 69 miles", () => {
    expect(haversineMiles(40, -83, 41, -83)).toBeCloseTo(69.09, 1);
  });

  it("sums the distance along the track and splits the duration into moving and stopped by the reported speed", () => {
    // 10 minutes driving north at a reported 60 mph, then 5 minutes standing at 0 mph.
    const t = track([
      [0, 40, -83, 0],
      [10, 40.1447, -83, 60],
      [15, 40.1447, -83, 0],
    ]);
    const totals = tripTotals(t, { startMs: 0, endMs: 15 * MIN });
    expect(totals.distanceMiles).toBeCloseTo(10, 1);
    expect(totals.durationMs).toBe(15 * MIN);
    expect(totals.movingMs).toBe(10 * MIN);
    expect(totals.stoppedMs).toBe(5 * MIN);
    expect(totals.maxSpeedMph).toBe(60);
    expect(totals.averageSpeedMph).toBeCloseTo(60, 0);
  });

  it("without reported speeds, the speed between points decides moving time and the top speed", () => {
    const t = track([
      [0, 40, -83],
      [6, 40.0724, -83], // 5 miles in 6 minutes: 50 mph
      [12, 40.0724, -83], // standing
    ]);
    const totals = tripTotals(t, { startMs: 0, endMs: null });
    expect(totals.durationMs).toBe(12 * MIN);
    expect(totals.movingMs).toBe(6 * MIN);
    expect(totals.maxSpeedMph).toBeCloseTo(50, 0);
  });

  it("an open trip lasts until its last point; an empty track has no speeds", () => {
    expect(tripTotals(track([]), { startMs: 0, endMs: null })).toEqual({
      distanceMiles: 0,
      durationMs: 0,
      movingMs: 0,
      stoppedMs: 0,
      maxSpeedMph: null,
      averageSpeedMph: null,
    });
    expect(tripTotals(track([[3, 40, -83, 0]]), { startMs: 0, endMs: null }).durationMs).toBe(3 * MIN);
  });
});

describe("replay position", () => {
  it("finds the last point at or before a time", () => {
    const t = [0, 10, 20, 30];
    expect([pointAt(t, -5), pointAt(t, 0), pointAt(t, 9), pointAt(t, 10), pointAt(t, 29), pointAt(t, 99)]).toEqual([
      0, 0, 0, 1, 2, 3,
    ]);
    expect(pointAt([], 5)).toBe(0);
  });
});
