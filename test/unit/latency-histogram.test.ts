import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { rollupRows } from "@/server/delivery/attempt-rollups";
import { binEstimate, LATENCY_BIN_BOUNDS_MS, latencyBin, percentileOf } from "@/common/delivery/latency-histogram";

// The delivery health rollup's latency histogram: the bound on its percentiles, and the bins the
// migration's backfill uses.

/** percentile_disc over a list: the ⌈p·n⌉-th smallest. */
const exact = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.max(1, Math.ceil(p * values.length)) - 1]!;

describe("latency histogram", () => {
  it("every whole millisecond of a bin lies within 5 % of the bin's estimate (up to the open top bin)", () => {
    const outside: number[] = [];
    for (let ms = 0; ms < LATENCY_BIN_BOUNDS_MS.at(-1)!; ms++)
      if (Math.abs(binEstimate(latencyBin(ms)) - ms) > 0.05 * ms + 0.5) outside.push(ms);
    expect(outside).toEqual([]);
  });

  it("bins as PostgreSQL's width_bucket does: the number of thresholds at or below the latency", () => {
    expect([0, 1, 2, 13, 14, 123395, 123396, 10 ** 7].map(latencyBin)).toEqual([0, 1, 2, 12, 13, 108, 109, 109]);
  });

  it("p50 and p95 from the histogram stay within 5 % of percentile_disc", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 50; round++) {
      const values = Array.from({ length: 1 + Math.floor(random() * 500) }, () => Math.floor(random() ** 3 * 20_000));
      const histogram = new Map<string, number>();
      for (const v of values) histogram.set(String(latencyBin(v)), (histogram.get(String(latencyBin(v))) ?? 0) + 1);
      for (const p of [0.5, 0.95])
        expect(Math.abs(percentileOf(histogram, p)! - exact(values, p))).toBeLessThanOrEqual(
          0.05 * exact(values, p) + 0.5,
        );
    }
    expect(percentileOf(new Map(), 0.5)).toBeNull();
  });

  it("the migration's backfill bins by the same thresholds", () => {
    const migration = fs.readFileSync(
      path.join(import.meta.dirname, "../../db/migrations/0021_delivery_attempt_rollups_backfill.sql"),
      "utf8",
    );
    const list = /width_bucket\(latency_ms, ARRAY\[([\d,]+)\]::int\[\]\)/.exec(migration)?.[1];
    expect(list?.split(",").map(Number)).toEqual([...LATENCY_BIN_BOUNDS_MS]);
  });
});

describe("rollup rows", () => {
  it("sum a batch per delivery and bucket of 5 min and 1 h, in key order, leaving out REDIRECTED legs", () => {
    const at = (iso: string) => new Date(iso);
    const rows = rollupRows([
      {
        deliveryId: 2,
        attemptedAt: at("2026-11-25T10:04:59.999Z"),
        outcome: "DELIVERED",
        httpStatus: 200,
        latencyMs: 100,
      },
      { deliveryId: 2, attemptedAt: at("2026-11-25T10:05:00.000Z"), outcome: "RETRY", httpStatus: 500, latencyMs: 100 },
      {
        deliveryId: 2,
        attemptedAt: at("2026-11-25T10:06:00.000Z"),
        outcome: "RETRY",
        httpStatus: null,
        latencyMs: 10_000,
      },
      {
        deliveryId: 2,
        attemptedAt: at("2026-11-25T10:06:00.000Z"),
        outcome: "REDIRECTED",
        httpStatus: 301,
        latencyMs: 5,
      },
      {
        deliveryId: 1,
        attemptedAt: at("2026-11-25T09:59:00.000Z"),
        outcome: "DEACTIVATED",
        httpStatus: 410,
        latencyMs: 0,
      },
    ]);
    expect(rows.map((r) => ({ ...r, bucketStart: r.bucketStart.toISOString() }))).toEqual([
      {
        deliveryId: 1,
        bucketSeconds: 300,
        bucketStart: "2026-11-25T09:55:00.000Z",
        attempts: 1,
        delivered: 0,
        failures: { "410": 1 },
        latency: { "0": 1 },
      },
      {
        deliveryId: 1,
        bucketSeconds: 3600,
        bucketStart: "2026-11-25T09:00:00.000Z",
        attempts: 1,
        delivered: 0,
        failures: { "410": 1 },
        latency: { "0": 1 },
      },
      {
        deliveryId: 2,
        bucketSeconds: 300,
        bucketStart: "2026-11-25T10:00:00.000Z",
        attempts: 1,
        delivered: 1,
        failures: {},
        latency: { [latencyBin(100)]: 1 },
      },
      {
        deliveryId: 2,
        bucketSeconds: 300,
        bucketStart: "2026-11-25T10:05:00.000Z",
        attempts: 2,
        delivered: 0,
        failures: { "500": 1, none: 1 },
        latency: { [latencyBin(100)]: 1, [latencyBin(10_000)]: 1 },
      },
      {
        deliveryId: 2,
        bucketSeconds: 3600,
        bucketStart: "2026-11-25T10:00:00.000Z",
        attempts: 3,
        delivered: 1,
        failures: { "500": 1, none: 1 },
        latency: { [latencyBin(100)]: 2, [latencyBin(10_000)]: 1 },
      },
    ]);
  });
});
