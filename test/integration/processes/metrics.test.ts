// @module-tag embedded
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { request } from "@/test/helpers/api";
import { waitFor } from "@/test/helpers/delivery-fixture";
import { scrape, total } from "@/test/helpers/metrics-scrape";
import { openSse } from "@/test/helpers/sse";
import { startAppWithOwnDatabase, type AppWithOwnDatabase } from "@/test/helpers/app-with-own-database";
import { partnerAccount } from "@/test/helpers/partner-account";
import { simulatedTrip } from "@/test/helpers/telemetry";

// GET /metrics (docs/operations.md#metrics) on `npm start` with two HTTP processes and the worker
// in the primary: the counters of every process summed, moving as traffic goes through; served
// to loopback clients, and to others only with the token. TRUST_PROXY=1, so the test can speak
// as a client from elsewhere with X-Forwarded-For.

const TOKEN = "metrics-token-for-the-test-0123456789";
const LOCAL = { "X-Forwarded-For": "127.0.0.1" };
let own: AppWithOwnDatabase;

beforeAll(async () => {
  own = await startAppWithOwnDatabase("metrics", {
    WORKER: "on",
    WEB_CONCURRENCY: "2",
    TRUST_PROXY: "1",
    METRICS_TOKEN: TOKEN,
  });
}, 240_000);

afterAll(async () => {
  await own?.stop();
});

describe("GET /metrics", () => {
  test("is refused to a client off loopback without the token (401), and served with it", async () => {
    const base = own.app.baseUrl;
    const outside = { "X-Forwarded-For": "203.0.113.9" };
    const refused = await request("GET", `${base}/metrics`, { headers: outside });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(refused.text).not.toContain("wayline_");
    expect(
      (
        await request("GET", `${base}/metrics`, {
          headers: { ...outside, Authorization: "Bearer not-the-token-at-all-000000" },
        })
      ).status,
    ).toBe(401);
    const allowed = await scrape(base, { ...outside, Authorization: `Bearer ${TOKEN}` });
    expect(allowed.reply.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(total(allowed.samples, "wayline_processes", { role: "http" })).toBe(2);
  });

  test(
    "counts requests, data sets, points, notifications and deliveries as they happen, summed over the processes",
    { timeout: 120_000 },
    async () => {
      const base = own.app.baseUrl;
      const api = `${base}/sandbox/api`;
      const { token } = await partnerAccount(own);
      const vehicle = await request("POST", `${api}/vehicle/`, { token, json: { label: "Metrics car" } });
      expect(vehicle.status, vehicle.text).toBe(200);
      const vehicleId = vehicle.body.vehicle.vehicleId as number;
      const sub = await request("POST", `${api}/vehicle/${vehicleId}/eventSubscription/WAYPOINT/`, {
        token,
        json: { postUrl: `${own.receiver.url}/hook` },
      });
      expect(sub.status, sub.text).toBe(200);

      const before = (await scrape(base, LOCAL)).samples;
      const route = { method: "POST", route: "/sandbox/api/vehicle/[vehicleId]/dataSet", status: "200" };
      // Four trips of 12 data sets (ON, ten RUNNING, OFF; 2 + 10×3 + 2 = 34 points), each trip a
      // POST of its own; every data set has a waypoint: 48 WAYPOINT notifications, 48 webhooks.
      const start = Date.now() - 10 * 3_600_000;
      for (let i = 0; i < 4; i++) {
        const posted = await request("POST", `${api}/vehicle/${vehicleId}/dataSet/`, {
          token,
          json: simulatedTrip(new Date(start + i * 3_600_000)),
        });
        expect(posted.status, posted.text).toBe(200);
      }
      await waitFor(async () => own.receiver.on("/hook").length >= 48, { what: "48 webhooks", timeoutMs: 60_000 });

      // The worker records a delivery just after the receiver's answer: wait for its counters. A scrape is
      // not one instant: the primary reads its metrics one after the other, awaiting the database's gauges
      // between them, while its worker goes on counting; so wait until both counters of the deliveries
      // have all 48 (one scrape once saw 48 deliveries and 24 durations).
      const after = await waitFor(
        async () => {
          const { samples } = await scrape(base, LOCAL);
          const delivered = (name: string) =>
            total(samples, name, { outcome: "delivered" }) - total(before, name, { outcome: "delivered" });
          return (
            delivered("wayline_deliveries_total") >= 48 &&
            delivered("wayline_delivery_attempt_duration_seconds_count") >= 48 &&
            samples
          );
        },
        { what: "48 deliveries counted", timeoutMs: 30_000 },
      );
      const moved = (name: string, labels: Record<string, string> = {}) =>
        total(after, name, labels) - total(before, name, labels);
      expect(moved("wayline_http_requests_total", route)).toBe(4);
      expect(moved("wayline_http_request_duration_seconds_count", route)).toBe(4);
      expect(moved("wayline_data_sets_ingested_total", { environment: "sandbox" })).toBe(48);
      expect(moved("wayline_data_points_ingested_total", { environment: "sandbox" })).toBe(4 * 34);
      expect(moved("wayline_notifications_made_total", { environment: "sandbox" })).toBe(48);
      expect(moved("wayline_deliveries_total", { outcome: "delivered" })).toBe(48);
      expect(moved("wayline_delivery_attempt_duration_seconds_count", { outcome: "delivered" })).toBe(48);
      // Read from the database at scrape time: all delivered, nothing pending.
      expect(total(after, "wayline_delivery_queue_depth", { state: "pending" })).toBe(0);
      expect(total(after, "wayline_delivery_oldest_pending_age_seconds")).toBe(0);
      expect(after.some((s) => s.name === "wayline_simulator_runs_active")).toBe(true);
    },
  );

  test("an event stream is counted once, at its first byte, and its life apart: open streams and their lifetime", async () => {
    const base = own.app.baseUrl;
    const { clientToken } = await partnerAccount(own);
    const route = "/sandbox/api/eventFeed/stream";
    const opened = { method: "GET", route, status: "200" };
    const before = (await scrape(base, LOCAL)).samples;
    const moved = (samples: typeof before, name: string, labels: Record<string, string>) =>
      total(samples, name, labels) - total(before, name, labels);

    const asked = performance.now();
    const stream = await openSse(`${base}${route}`, { token: clientToken });
    // The server's interval (arrival to headers) lies inside the client's (sent to headers read).
    const toHeaders = (performance.now() - asked) / 1000;
    expect(stream.status, stream.text).toBe(200);
    await stream.waitForComment("stream open");
    const open = (await scrape(base, LOCAL)).samples;
    // Counted while it is still open: request, duration (to the first byte) and the open gauge.
    expect(moved(open, "wayline_http_requests_total", opened)).toBe(1);
    expect(moved(open, "wayline_http_request_duration_seconds_count", opened)).toBe(1);
    expect(moved(open, "wayline_http_request_duration_seconds_sum", opened)).toBeLessThanOrEqual(toHeaders);
    expect(moved(open, "wayline_http_streams_open", { route })).toBe(1);
    expect(moved(open, "wayline_http_stream_duration_seconds_count", { route })).toBe(0);

    const held = performance.now();
    stream.close();
    await stream.closed;
    const heldFor = (held - asked) / 1000;
    const after = await waitFor(
      async () => {
        const { samples } = await scrape(base, LOCAL);
        return moved(samples, "wayline_http_streams_open", { route }) === 0 && samples;
      },
      { what: "the stream no longer open", timeoutMs: 30_000 },
    );
    // Its end adds a lifetime (at least as long as the client held it after sending), and no second request.
    expect(moved(after, "wayline_http_stream_duration_seconds_count", { route })).toBe(1);
    expect(moved(after, "wayline_http_stream_duration_seconds_sum", { route })).toBeGreaterThanOrEqual(
      heldFor - toHeaders,
    );
    expect(moved(after, "wayline_http_requests_total", opened)).toBe(1);
    expect(moved(after, "wayline_http_request_duration_seconds_count", opened)).toBe(1);
    expect(moved(after, "wayline_http_request_duration_seconds_sum", opened)).toBe(
      moved(open, "wayline_http_request_duration_seconds_sum", opened),
    );
  });
});
