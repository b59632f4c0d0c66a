import { describe, expect, it } from "vitest";
import { placeAt, tripEnds } from "@/server/places/match";

// Which place a trip's first or last point lies in.

const home = {
  name: "Home",
  shape: { kind: "circle" as const, center: { latitude: 48.8566, longitude: 2.3522 }, radius: 100 },
};
const city = {
  name: "City",
  shape: {
    kind: "polygon" as const,
    polygon: [
      { latitude: 48.8, longitude: 2.25 },
      { latitude: 48.8, longitude: 2.45 },
      { latitude: 48.9, longitude: 2.45 },
      { latitude: 48.9, longitude: 2.25 },
    ],
  },
};

describe("places of a trip's ends", () => {
  it("a circle holds points within its radius (90 m in, 110 m out)", () => {
    // 0.0009° of latitude is about 100 m.
    expect(placeAt([home], { latitude: 48.8566 + 0.00081, longitude: 2.3522 })).toBe("Home");
    expect(placeAt([home], { latitude: 48.8566 + 0.00099, longitude: 2.3522 })).toBeNull();
  });

  it("where places overlap the smallest wins; outside all, none", () => {
    expect(placeAt([city, home], { latitude: 48.8566, longitude: 2.3522 })).toBe("Home");
    expect(placeAt([city, home], { latitude: 48.85, longitude: 2.3 })).toBe("City");
    expect(placeAt([city, home], { latitude: 45, longitude: 2.3 })).toBeNull();
    expect(placeAt([city, home], null)).toBeNull();
  });

  it("a trip touching no place has no ends to show", () => {
    expect(tripEnds([home], { latitude: 48.8566, longitude: 2.3522 }, { latitude: 40, longitude: 2 })).toEqual({
      from: "Home",
      to: null,
    });
    expect(tripEnds([home], { latitude: 40, longitude: 2 }, null)).toBeNull();
  });
});
