import { describe, expect, it } from "vitest";
import { formatScope, parseRequestedScope, precisionsUpTo } from "@/common/oauth/grant-scope";
import { positionAt, roundCoordinate, waypointValueAt } from "@/common/oauth/location-precision";
import { pointAt } from "@/server/telemetry/serialize";

describe("location precision", () => {
  it("rounds to 2 decimals, half away from the stored value's neighbours, and never writes -0", () => {
    expect(roundCoordinate(39.961178)).toBe(39.96);
    expect(roundCoordinate(-82.998794)).toBe(-83);
    expect(roundCoordinate(-0.001)).toBe(0);
    expect(Object.is(roundCoordinate(-0.001), -0)).toBe(false);
  });

  it("positionAt: precise unchanged, approximate rounded with the other members kept, none null", () => {
    const p = { timestamp: "20261126T120000+0000", latitude: 39.961178, longitude: -82.998794 };
    expect(positionAt(p, "precise")).toBe(p);
    expect(positionAt(p, "approximate")).toEqual({ timestamp: p.timestamp, latitude: 39.96, longitude: -83 });
    expect(positionAt(p, "none")).toBeNull();
    expect(positionAt(null, "approximate")).toBeNull();
  });

  it("waypointValueAt rounds a GEN_WAYPOINT value, hides an unreadable one unless precise", () => {
    expect(waypointValueAt("39.961178,-82.998794", "approximate")).toBe("39.96,-83");
    expect(waypointValueAt("39.961178,-82.998794", "precise")).toBe("39.961178,-82.998794");
    expect(waypointValueAt("39.961178,-82.998794", "none")).toBeNull();
    expect(waypointValueAt("somewhere", "approximate")).toBeNull();
  });

  it("pointAt: a waypoint's value and translatedValue follow the precision, an address is hidden, other keys untouched", () => {
    const wp = { key: "GEN_WAYPOINT", value: "39.961178,-82.998794", translatedValue: "39.961178,-82.998794" };
    expect(pointAt(wp, "approximate")).toMatchObject({ value: "39.96,-83", translatedValue: "39.96,-83" });
    expect(pointAt(wp, "none")).toMatchObject({ value: null, translatedValue: null });
    const address = { key: "GEN_NEAREST_ADDRESS", value: "1 Main St", translatedValue: "1 Main St" };
    expect(pointAt(address, "approximate")).toMatchObject({ value: null });
    const speed = { key: "GEN_SPEED", value: "17", translatedValue: "17.0 mph" };
    expect(pointAt(speed, "none")).toBe(speed);
  });
});

describe("scopes", () => {
  it("no scope, or only names of the app's own, asks for everything precise (2014 clients)", () => {
    expect(parseRequestedScope("")).toEqual({ ok: true, asked: { location: "precise", data: true, account: true } });
    expect(parseRequestedScope("vehicles accounts")).toMatchObject({ ok: true, asked: { location: "precise" } });
  });

  it("known names ask for exactly those; no location name means none; two locations are refused", () => {
    expect(parseRequestedScope("data location:approximate")).toEqual({
      ok: true,
      asked: { location: "approximate", data: true, account: false },
    });
    expect(parseRequestedScope("account")).toEqual({
      ok: true,
      asked: { location: "none", data: false, account: true },
    });
    expect(parseRequestedScope("location:precise location:none").ok).toBe(false);
  });

  it("formats a grant as the token answer's scope, and offers precisions up to the one asked", () => {
    expect(formatScope({ location: "approximate", data: true, account: false })).toBe("location:approximate data");
    expect(precisionsUpTo("approximate")).toEqual(["approximate", "none"]);
    expect(precisionsUpTo("precise")).toEqual(["precise", "approximate", "none"]);
  });
});
