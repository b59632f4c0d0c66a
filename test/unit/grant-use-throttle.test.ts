import { describe, expect, it } from "vitest";
import { createUseThrottle } from "@/server/api-auth/use-throttle";

describe("createUseThrottle (the connected-apps page's last-use stamp, server/api-auth/last-use.ts)", () => {
  it("a grant is due once, then not again until the interval has passed", () => {
    const throttle = createUseThrottle({ intervalMs: 60_000, limit: 10 });
    expect(throttle.due("1:7", 1_000)).toBe(true);
    expect(throttle.due("1:7", 1_001)).toBe(false);
    expect(throttle.due("1:7", 60_999)).toBe(false);
    expect(throttle.due("1:7", 61_000)).toBe(true);
    expect(throttle.due("1:7", 61_001)).toBe(false);
  });

  it("grants are throttled apart: another account or another app is due at once", () => {
    const throttle = createUseThrottle({ intervalMs: 60_000, limit: 10 });
    expect(throttle.due("1:7", 0)).toBe(true);
    expect(throttle.due("2:7", 1)).toBe(true);
    expect(throttle.due("1:8", 2)).toBe(true);
    expect(throttle.due("1:7", 3)).toBe(false);
  });

  it("past its limit it forgets the longest-unstamped grant first, which is then due again", () => {
    const throttle = createUseThrottle({ intervalMs: 60_000, limit: 2 });
    expect(throttle.due("a", 0)).toBe(true);
    expect(throttle.due("b", 1)).toBe(true);
    expect(throttle.due("c", 2)).toBe(true); // "a" is forgotten
    expect(throttle.due("b", 3)).toBe(false);
    expect(throttle.due("c", 4)).toBe(false);
    expect(throttle.due("a", 5)).toBe(true); // "b" is forgotten now
    expect(throttle.due("c", 6)).toBe(false);
    expect(throttle.due("b", 7)).toBe(true);
  });
});
