import { describe, expect, it } from "vitest";
import { normaliseRing, pointInPolygon, selfIntersects, type LatLng } from "@/common/geo/polygon";

// The geometry of polygon geofences and places: each case is one a fence meets on the road or on
// the globe's seams (the antimeridian, the poles), with points a little in and a little out.

const ring = (...pairs: [number, number][]): LatLng[] =>
  pairs.map(([latitude, longitude]) => ({ latitude, longitude }));
const at = (latitude: number, longitude: number): LatLng => ({ latitude, longitude });

// A square of about 1.1 km in Columbus, Ohio.
const square = ring([40, -83], [40, -82.99], [40.01, -82.99], [40.01, -83]);

describe("normaliseRing", () => {
  it("drops the closing point and keeps an open ring as it is", () => {
    expect(normaliseRing([...square, square[0]!])).toEqual(square);
    expect(normaliseRing(square)).toEqual(square);
    expect(normaliseRing(ring([1, 1], [1, 1], [1, 1]))).toEqual(ring([1, 1]));
    expect(normaliseRing([])).toEqual([]);
  });

  it("keeps a repeated point that is not the closing one", () => {
    const repeated = ring([0, 0], [0, 1], [0, 1], [1, 1]);
    expect(normaliseRing(repeated)).toEqual(repeated);
  });
});

describe("pointInPolygon", () => {
  it("a square: inside, outside on every side, closed or open alike", () => {
    const closed = [...square, square[0]!];
    for (const polygon of [square, closed]) {
      expect(pointInPolygon(at(40.005, -82.995), polygon)).toBe(true);
      expect(pointInPolygon(at(39.999, -82.995), polygon)).toBe(false);
      expect(pointInPolygon(at(40.011, -82.995), polygon)).toBe(false);
      expect(pointInPolygon(at(40.005, -83.001), polygon)).toBe(false);
      expect(pointInPolygon(at(40.005, -82.989), polygon)).toBe(false);
    }
  });

  it("a point on an edge or a vertex is inside; a step of 10 m off it is not", () => {
    expect(pointInPolygon(at(40, -82.995), square)).toBe(true);
    expect(pointInPolygon(at(40.005, -83), square)).toBe(true);
    expect(pointInPolygon(at(40.01, -82.99), square)).toBe(true);
    expect(pointInPolygon(at(40, -83), square)).toBe(true);
    expect(pointInPolygon(at(39.9999, -82.995), square)).toBe(false);
    // On the diagonal edge of a triangle.
    const triangle = ring([0, 0], [0, 1], [1, 0]);
    expect(pointInPolygon(at(0.5, 0.5), triangle)).toBe(true);
    expect(pointInPolygon(at(0.5001, 0.5001), triangle)).toBe(false);
  });

  it("a concave U: the notch between the arms is outside, the arms and the base inside", () => {
    const u = ring([0, 0], [0, 3], [3, 3], [3, 2], [1, 2], [1, 1], [3, 1], [3, 0]);
    expect(pointInPolygon(at(2, 1.5), u)).toBe(false); // in the notch
    expect(pointInPolygon(at(0.5, 1.5), u)).toBe(true); // base
    expect(pointInPolygon(at(2, 0.5), u)).toBe(true); // one arm
    expect(pointInPolygon(at(2, 2.5), u)).toBe(true); // the other
    expect(pointInPolygon(at(3.5, 1.5), u)).toBe(false);
    // A ray from the notch passes exactly through vertices (3,1) and (3,2) of the arms' ends.
    expect(pointInPolygon(at(1, 1.5), u)).toBe(true); // on the notch's floor
  });

  it("a ray through a vertex counts it once", () => {
    const diamond = ring([0, 1], [1, 2], [2, 1], [1, 0]);
    expect(pointInPolygon(at(1, 1), diamond)).toBe(true);
    expect(pointInPolygon(at(1, -0.5), diamond)).toBe(false);
    expect(pointInPolygon(at(1, 2.5), diamond)).toBe(false);
  });

  it("a tiny fence (about 1 m across) still tells in from out", () => {
    const tiny = ring([51.5, -0.1], [51.5, -0.09999], [51.50001, -0.09999], [51.50001, -0.1]);
    expect(pointInPolygon(at(51.500005, -0.099995), tiny)).toBe(true);
    expect(pointInPolygon(at(51.500005, -0.09998), tiny)).toBe(false);
    expect(pointInPolygon(at(51.50003, -0.099995), tiny)).toBe(false);
  });

  it("duplicate points (repeated vertices) change nothing", () => {
    const doubled = ring([40, -83], [40, -83], [40, -82.99], [40.01, -82.99], [40.01, -82.99], [40.01, -83]);
    expect(pointInPolygon(at(40.005, -82.995), doubled)).toBe(true);
    expect(pointInPolygon(at(40.005, -82.98), doubled)).toBe(false);
    expect(pointInPolygon(at(40.02, -82.995), doubled)).toBe(false);
  });

  it("over the antimeridian (lon 179 → -179): the 2° strip is inside, the 358° the other way is not", () => {
    // Fiji's Taveuni straddles 180°.
    const fence = ring([-17, 179], [-17, -179], [-16, -179], [-16, 179]);
    expect(pointInPolygon(at(-16.5, 179.5), fence)).toBe(true);
    expect(pointInPolygon(at(-16.5, -179.5), fence)).toBe(true);
    expect(pointInPolygon(at(-16.5, 180), fence)).toBe(true);
    expect(pointInPolygon(at(-16.5, -180), fence)).toBe(true);
    expect(pointInPolygon(at(-16.5, 0), fence)).toBe(false);
    expect(pointInPolygon(at(-16.5, 178.5), fence)).toBe(false);
    expect(pointInPolygon(at(-16.5, -178.5), fence)).toBe(false);
    // The same fence starting on the other side, closed, and listed the other way round.
    const fromWest = ring([-16, -179], [-16, 179], [-17, 179], [-17, -179], [-16, -179]);
    expect(pointInPolygon(at(-16.5, 179.9), fromWest)).toBe(true);
    expect(pointInPolygon(at(-16.5, -179.9), fromWest)).toBe(true);
    expect(pointInPolygon(at(-16.5, 90), fromWest)).toBe(false);
  });

  it("a vertex given as 180 or as -180 is the same place", () => {
    const a = ring([0, 179], [0, 180], [1, 180], [1, 179]);
    const b = ring([0, 179], [0, -180], [1, -180], [1, 179]);
    for (const fence of [a, b]) {
      expect(pointInPolygon(at(0.5, 179.5), fence)).toBe(true);
      expect(pointInPolygon(at(0.5, -179.5), fence)).toBe(false);
      expect(pointInPolygon(at(0.5, 180), fence)).toBe(true);
      expect(pointInPolygon(at(0.5, -180), fence)).toBe(true);
    }
  });

  it("near a pole, a fence that does not go round it is a plain polygon", () => {
    // Svalbard-like latitudes, a fence 10° of longitude wide.
    const fence = ring([89, 0], [89, 10], [89.5, 10], [89.5, 0]);
    expect(pointInPolygon(at(89.2, 5), fence)).toBe(true);
    expect(pointInPolygon(at(89.2, 15), fence)).toBe(false);
    expect(pointInPolygon(at(89.7, 5), fence)).toBe(false);
    expect(pointInPolygon(at(90, 5), fence)).toBe(false);
  });

  it("a ring round the north pole encloses the pole, every longitude above it, and nothing below", () => {
    const arctic = ring([80, 0], [80, 90], [80, 180], [80, -90]);
    expect(pointInPolygon(at(90, 0), arctic)).toBe(true);
    expect(pointInPolygon(at(85, 45), arctic)).toBe(true);
    expect(pointInPolygon(at(85, -135), arctic)).toBe(true);
    expect(pointInPolygon(at(85, 180), arctic)).toBe(true);
    expect(pointInPolygon(at(80, 90), arctic)).toBe(true); // a vertex
    expect(pointInPolygon(at(79, 45), arctic)).toBe(false);
    expect(pointInPolygon(at(-90, 0), arctic)).toBe(false);
    expect(pointInPolygon(at(0, 0), arctic)).toBe(false);
    // Listed westward and closed: the same cap.
    const westward = ring([80, 0], [80, -90], [80, 180], [80, 90], [80, 0]);
    expect(pointInPolygon(at(85, 100), westward)).toBe(true);
    expect(pointInPolygon(at(75, 100), westward)).toBe(false);
  });

  it("a ring round the south pole encloses the south pole; one with a dip follows it", () => {
    const antarctic = ring([-70, -120], [-70, 0], [-70, 120], [-60, 150]);
    expect(pointInPolygon(at(-90, 0), antarctic)).toBe(true);
    expect(pointInPolygon(at(-80, 60), antarctic)).toBe(true);
    expect(pointInPolygon(at(-65, 150), antarctic)).toBe(true); // in the bulge up to -60
    expect(pointInPolygon(at(-65, 60), antarctic)).toBe(false);
    expect(pointInPolygon(at(90, 0), antarctic)).toBe(false);
  });

  it("fewer than three points enclose nothing beyond themselves", () => {
    expect(pointInPolygon(at(0, 0), [])).toBe(false);
    expect(pointInPolygon(at(0, 0), ring([0, 0]))).toBe(true);
    expect(pointInPolygon(at(0, 0.5), ring([0, 0], [0, 1]))).toBe(true);
    expect(pointInPolygon(at(0.1, 0.5), ring([0, 0], [0, 1]))).toBe(false);
  });
});

describe("selfIntersects", () => {
  it("a simple square, triangle or concave U does not; closed or open alike", () => {
    expect(selfIntersects(square)).toBe(false);
    expect(selfIntersects([...square, square[0]!])).toBe(false);
    expect(selfIntersects(ring([0, 0], [0, 1], [1, 0]))).toBe(false);
    expect(selfIntersects(ring([0, 0], [0, 3], [3, 3], [3, 2], [1, 2], [1, 1], [3, 1], [3, 0]))).toBe(false);
  });

  it("a bow tie crosses itself", () => {
    expect(selfIntersects(ring([0, 0], [1, 1], [1, 0], [0, 1]))).toBe(true);
    expect(selfIntersects(ring([0, 0], [1, 1], [1, 0], [0, 1], [0, 0]))).toBe(true);
  });

  it("edges that only touch (a figure eight through one vertex, a vertex on another edge) count", () => {
    expect(selfIntersects(ring([0, 0], [1, 1], [2, 0], [2, 2], [1, 1], [0, 2]))).toBe(true);
    expect(selfIntersects(ring([0, 0], [0, 2], [1, 2], [0, 1], [1, 0]))).toBe(true);
  });

  it("a spike that runs back along its own edge, and three points on one line, count", () => {
    expect(selfIntersects(ring([0, 0], [0, 2], [0, 1], [1, 1]))).toBe(true);
    expect(selfIntersects(ring([0, 0], [0, 1], [0, 2]))).toBe(true);
    expect(selfIntersects(ring([0, 0], [0, 2], [0, 1]))).toBe(true);
  });

  it("a straight vertex in the middle of an edge is fine", () => {
    expect(selfIntersects(ring([0, 0], [0, 1], [0, 2], [1, 2], [1, 0]))).toBe(false);
  });

  it("repeated consecutive points are one vertex", () => {
    expect(selfIntersects(ring([0, 0], [0, 0], [0, 1], [1, 1], [1, 1], [1, 0]))).toBe(false);
    expect(selfIntersects(ring([0, 0], [0, 0], [0, 0]))).toBe(false);
  });

  it("over the antimeridian: the strip is simple, its bow tie is not", () => {
    expect(selfIntersects(ring([-17, 179], [-17, -179], [-16, -179], [-16, 179]))).toBe(false);
    expect(selfIntersects(ring([-17, 179], [-16, -179], [-17, -179], [-16, 179]))).toBe(true);
  });

  it("round a pole: the cap is simple; a ring round it that crosses itself is not", () => {
    expect(selfIntersects(ring([80, 0], [80, 90], [80, 180], [80, -90]))).toBe(false);
    expect(selfIntersects(ring([-70, -120], [-70, 0], [-70, 120], [-60, 150]))).toBe(false);
    // Round the pole once at 80° and back across the first edge at 70°/85°.
    expect(selfIntersects(ring([80, 0], [80, 90], [80, 180], [80, -90], [85, -10], [75, 10]))).toBe(true);
  });
});
