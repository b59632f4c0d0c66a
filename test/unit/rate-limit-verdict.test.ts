import { describe, expect, it } from "vitest";
import type { Policy } from "@/server/platform/rate-limits/policies";
import {
  rateLimitHeaders,
  refusal,
  remaining,
  resetSeconds,
  retryAfterSeconds,
  type Verdict,
} from "@/server/platform/rate-limits/verdict";

// 1000 requests per 10 s: one request is 10 ms of the window.
const perToken: Policy = { name: "per-token", scope: "api-token", quota: 1000, windowSeconds: 10, emissionMs: 10 };
// 5 per hour: one request is 720 s.
const slow: Policy = { name: "per-client", scope: "api-client", quota: 5, windowSeconds: 3600, emissionMs: 720_000 };

const verdict = (policy: Policy, allowed: boolean, aheadMs: number): Verdict => ({
  policy,
  key: "k",
  allowed,
  aheadMs,
});

describe("rate-limit verdicts", () => {
  it("a fresh bucket after one request: quota − 1 left, full again after one emission interval", () => {
    expect(remaining(verdict(perToken, true, 10))).toBe(999);
    expect(resetSeconds(verdict(perToken, true, 10))).toBe(1);
    expect(remaining(verdict(slow, true, 720_000))).toBe(4);
    expect(resetSeconds(verdict(slow, true, 720_000))).toBe(720);
  });

  it("a timestamp a microsecond short of a whole request still counts the request as left", () => {
    expect(remaining(verdict(slow, true, 720_000 * 2 - 0.001))).toBe(3);
    expect(remaining(verdict(slow, true, 720_000 * 2 + 0.001))).toBe(3);
  });

  it("a refused request has nothing left and waits until one request fits", () => {
    // Bucket full to the brim: tat is 5 intervals ahead; one more fits after one interval.
    const refused = verdict(slow, false, 720_000 * 5 - 60_000);
    expect(remaining(refused)).toBe(0);
    expect(retryAfterSeconds(refused)).toBe(660);
    expect(retryAfterSeconds(verdict(perToken, false, 10_000))).toBe(1);
  });

  it("headers are structured-field lists in the given order", () => {
    expect(rateLimitHeaders([verdict(perToken, true, 30), verdict(slow, true, 720_000)])).toEqual({
      "RateLimit-Policy": '"per-token";q=1000;w=10, "per-client";q=5;w=3600',
      RateLimit: '"per-token";r=997;t=1, "per-client";r=4;t=720',
    });
    expect(rateLimitHeaders([])).toEqual({});
  });

  it("the refusal names the refusing policies and the longest wait", () => {
    expect(refusal([verdict(perToken, true, 10)])).toBeNull();
    expect(refusal([verdict(perToken, false, 10_000), verdict(slow, false, 720_000 * 5)])).toEqual({
      retryAfterSeconds: 720,
      policies: ["per-token", "per-client"],
    });
  });
});
