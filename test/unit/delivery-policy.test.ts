import { describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import {
  classifyStatus,
  decideRetry,
  GIVE_UP_AFTER_MS,
  parseRetryAfter,
  RETRY_DELAYS_MS,
} from "@/server/delivery/retry-policy";
import { newSigningSecret, signWebhook } from "@/server/delivery/signing";

// The retry schedule with the clock passed in: a whole day of failures walked in microseconds.

describe("retry schedule", () => {
  const middle = () => 0.5; // no jitter

  it("waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h … between tries", () => {
    const start = new Date("2026-11-22T00:00:00Z");
    let now = start;
    const gaps: number[] = [];
    for (let failures = 1; failures <= 6; failures++) {
      const d = decideRetry({ failures, failingSince: start, now, lastError: "HTTP 503", random: middle });
      if (d.action !== "retry") throw new Error("gave up too early");
      gaps.push(d.at.getTime() - now.getTime());
      now = d.at;
    }
    expect(gaps).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000]);
    expect(RETRY_DELAYS_MS.at(-1)).toBe(36_000_000);
  });

  it("jitters each delay by ±20 %", () => {
    const now = new Date();
    const low = decideRetry({ failures: 2, failingSince: now, now, lastError: "x", random: () => 0 });
    const high = decideRetry({ failures: 2, failingSince: now, now, lastError: "x", random: () => 0.999999 });
    expect(low.action === "retry" && low.at.getTime() - now.getTime()).toBe(240_000);
    expect(high.action === "retry" && Math.round((high.at.getTime() - now.getTime()) / 1000)).toBe(360);
  });

  it("keeps trying for 24 hours, lands the last try at the end of the window, then deactivates with the reason", () => {
    const start = new Date("2026-11-22T00:00:00Z");
    let now = start;
    let tries = 1;
    for (;;) {
      const d = decideRetry({ failures: tries, failingSince: start, now, lastError: "HTTP 502", random: middle });
      if (d.action === "deactivate") {
        expect(now.getTime() - start.getTime()).toBe(GIVE_UP_AFTER_MS);
        expect(d.reason).toMatch(
          /Failing for 24 hours since 2026-11-22T00:00:00.000Z; last error at 2026-11-23T00:00:00.000Z: HTTP 502/,
        );
        break;
      }
      now = d.at;
      tries++;
    }
    expect(tries).toBe(8); // the first try, 6 scheduled retries, and the one at the 24-hour mark
  });

  it("honours Retry-After as a floor, in seconds or as an HTTP date", () => {
    const now = new Date("2026-11-22T00:00:00Z");
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter("Sun, 22 Nov 2026 00:10:00 GMT", now)).toBe(600_000);
    expect(parseRetryAfter("soon", now)).toBeNull();
    const d = decideRetry({
      failures: 1,
      failingSince: now,
      now,
      retryAfterMs: 600_000,
      lastError: "HTTP 429",
      random: middle,
    });
    expect(d.action === "retry" && d.at.getTime() - now.getTime()).toBe(600_000);
  });

  it("DELIVERY_RETRY_SCALE shrinks the delays and the window alike", () => {
    const now = new Date();
    const d = decideRetry({ failures: 3, failingSince: now, now, lastError: "x", random: middle, scale: 0.001 });
    expect(d.action === "retry" && d.at.getTime() - now.getTime()).toBe(1_800);
    const late = decideRetry({
      failures: 3,
      failingSince: new Date(now.getTime() - 86_400),
      now,
      lastError: "x",
      scale: 0.001,
    });
    expect(late.action).toBe("deactivate");
  });

  it("reads receiver answers as docs/delivery.md#answers says", () => {
    expect([200, 201, 204, 299].map((s) => classifyStatus(s).kind)).toEqual(Array(4).fill("delivered"));
    expect([301, 308].map((s) => classifyStatus(s).kind)).toEqual(["permanent-redirect", "permanent-redirect"]);
    expect([302, 307].map((s) => classifyStatus(s).kind)).toEqual(["temporary-redirect", "temporary-redirect"]);
    expect(classifyStatus(401).kind).toBe("unauthorized");
    expect([400, 403, 404, 410, 422].map((s) => classifyStatus(s).kind)).toEqual(Array(5).fill("deactivate"));
    expect([408, 429, 500, 502, 503, 504, 304].map((s) => classifyStatus(s).kind)).toEqual(Array(7).fill("retry"));
  });
});

describe("Standard Webhooks signatures", () => {
  it("verify with the standardwebhooks library, one v1 entry per secret", () => {
    const a = newSigningSecret();
    const b = newSigningSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = JSON.stringify({ id: 42, _type: "WAYPOINT" });
    const timestamp = Math.floor(Date.now() / 1000);
    const signed = signWebhook({ id: "42", timestamp, body, secrets: [a, b] });
    expect(signed.signedContent).toBe(`42.${timestamp}.${body}`);
    expect(signed.signature.split(" ")).toHaveLength(2);
    const headers = {
      "webhook-id": "42",
      "webhook-timestamp": String(timestamp),
      "webhook-signature": signed.signature,
    };
    expect(new Webhook(a).verify(body, headers)).toEqual({ id: 42, _type: "WAYPOINT" });
    expect(new Webhook(b).verify(body, headers)).toEqual({ id: 42, _type: "WAYPOINT" });
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(a).verify(body.replace("42", "43"), headers)).toThrow();
  });
});
