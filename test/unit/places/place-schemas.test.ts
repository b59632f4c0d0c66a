import { describe, expect, it } from "vitest";
import { createPlaceBody, updatePlaceBody } from "@/server/places/schemas";

// A place's rules, as the map's drawing, the rename and the import meet them.

const square = [
  { latitude: 50, longitude: 10 },
  { latitude: 50, longitude: 10.01 },
  { latitude: 50.01, longitude: 10.01 },
  { latitude: 50.01, longitude: 10 },
];
const circle = (radius: number) => ({ kind: "circle", center: { latitude: 50, longitude: 10 }, radius });
const errors = (body: unknown) => {
  const parsed = createPlaceBody.safeParse(body);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};

describe("place validation", () => {
  it("a circle of 25 m to 50 km is a place; 24.9 m and 50.001 km are not", () => {
    expect(errors({ name: "Home", shape: circle(25) })).toEqual([]);
    expect(errors({ name: "Home", shape: circle(50_000) })).toEqual([]);
    expect(errors({ name: "Home", shape: circle(24.9) })).toEqual([
      "shape.radius: A circle's radius must be at least 25 m.",
    ]);
    expect(errors({ name: "Home", shape: circle(50_001) })).toEqual([
      "shape.radius: A circle's radius must be at most 50 km.",
    ]);
  });

  it("a polygon of 3 to 100 points is a place; a closing point equal to the first is not counted", () => {
    expect(errors({ name: "Work", shape: { kind: "polygon", polygon: square.slice(0, 3) } })).toEqual([]);
    const closed = createPlaceBody.parse({ name: "Work", shape: { kind: "polygon", polygon: [...square, square[0]] } });
    expect(closed.shape.kind === "polygon" && closed.shape.polygon).toEqual(square);
    expect(errors({ name: "Work", shape: { kind: "polygon", polygon: square.slice(0, 2) } })).toEqual([
      "shape.polygon: A polygon needs at least 3 points.",
    ]);
    const circle101 = Array.from({ length: 101 }, (_, i) => ({
      latitude: 50 + 0.01 * Math.sin((2 * Math.PI * i) / 101),
      longitude: 10 + 0.01 * Math.cos((2 * Math.PI * i) / 101),
    }));
    expect(errors({ name: "Work", shape: { kind: "polygon", polygon: circle101 } })).toEqual([
      "shape.polygon: A polygon may have at most 100 points.",
    ]);
    expect(errors({ name: "Work", shape: { kind: "polygon", polygon: circle101.slice(0, 100) } })).toEqual([]);
  });

  it("a polygon whose edges cross is refused", () => {
    const bowTie = [square[0], square[2], square[1], square[3]];
    expect(errors({ name: "Work", shape: { kind: "polygon", polygon: bowTie } })).toEqual([
      "shape.polygon: The polygon's edges must not cross or touch each other.",
    ]);
  });

  it("coordinates out of range, a missing kind and unknown members are refused", () => {
    expect(errors({ name: "X", shape: { ...circle(100), center: { latitude: 91, longitude: 10 } } })).toEqual([
      "shape.center.latitude: Must be between -90 and 90.",
    ]);
    expect(errors({ name: "X", shape: { center: { latitude: 1, longitude: 1 }, radius: 100 } })).toHaveLength(1);
    expect(errors({ name: "X", shape: circle(100), accountId: 7 })).toHaveLength(1);
  });

  it("names are trimmed, 1 to 60 characters, on one line", () => {
    expect(createPlaceBody.parse({ name: "  Home  ", shape: circle(100) }).name).toBe("Home");
    expect(errors({ name: "   ", shape: circle(100) })).toEqual(["name: Give the place a name."]);
    expect(errors({ name: "x".repeat(61), shape: circle(100) })).toEqual(["name: Must be at most 60 characters."]);
    expect(errors({ name: "x".repeat(60), shape: circle(100) })).toEqual([]);
    expect(errors({ name: "Home\nWork", shape: circle(100) })).toHaveLength(1);
  });

  it("an edit sends a name, a shape or both, never nothing", () => {
    expect(updatePlaceBody.safeParse({ name: "Gym" }).success).toBe(true);
    expect(updatePlaceBody.safeParse({ shape: circle(40) }).success).toBe(true);
    expect(updatePlaceBody.safeParse({}).success).toBe(false);
    expect(updatePlaceBody.safeParse({ shape: circle(5) }).success).toBe(false);
  });
});
