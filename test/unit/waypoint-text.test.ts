import { describe, expect, it } from "vitest";
import { parseWaypoint } from "@/common/telemetry/keys";

// parseWaypoint reads "lat,lon" with one regular expression; it must accept and refuse exactly what
// splitting on commas, trimming each part and testing it as a decimal number did.
const byParts = (value: string) => {
  const parts = value.split(",").map((p) => p.trim());
  return parts.length === 2 && parts.every((p) => /^-?\d+(\.\d+)?$/.test(p)) ? parts.map(Number) : null;
};

const INPUTS = [
  "39.9612,-82.9988",
  " 39.9612 , -82.9988 ",
  "\t39.5,\n-83\r",
  "\u00a039.5,-83\u3000",
  "\ufeff39.5,-83\u2028",
  "-0,5",
  "39,-83",
  "39.,-83",
  ".5,-83",
  "39.5,-83,",
  "39.5,,-83",
  ",",
  "",
  "39.5",
  "39.5;-83",
  "+39.5,-83",
  "39.5,-83x",
  "3 9.5,-83",
  "39.5e1,-83",
  "--39.5,-83",
  "39.5,- 83",
  "1e3,2",
  "٣٩,-83",
];

describe("a waypoint's text", () => {
  it.each(INPUTS)("is read as splitting and trimming read it: %j", (value) => {
    const parsed = parseWaypoint(value);
    const expected = byParts(value);
    if (expected === null) expect(parsed).toBe('Must be "latitude,longitude", e.g. "28.036441,-82.593687".');
    else if (typeof parsed !== "string") expect([parsed.latitude, parsed.longitude]).toEqual(expected);
    else expect(parsed).not.toMatch(/^Must be "latitude,longitude"/);
  });

  it("keeps its range checks", () => {
    expect(parseWaypoint("91,0")).toBe("Latitude must be between -90 and 90.");
    expect(parseWaypoint("0,-181")).toBe("Longitude must be between -180 and 180.");
    expect(parseWaypoint(" 0 , 0 ")).toMatch(/^0,0 is not a real position/);
    expect(parseWaypoint(" 28.036441 ,-82.593687")).toEqual({ latitude: 28.036441, longitude: -82.593687 });
  });
});
