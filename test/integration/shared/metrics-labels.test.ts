import { randomInt } from "node:crypto";
import fs from "node:fs";
import { describe, expect, inject, test } from "vitest";
import { apps, addVehicle } from "@/test/helpers/fixtures";
import { createDriver, request } from "@/test/helpers/api";
import { send } from "@/test/helpers/fuzz";
import { scrape, total, type Sample } from "@/test/helpers/metrics-scrape";

// GET /metrics's route label (docs/operations.md#metrics) is the pattern of the route that served
// a request, never a value from its path: made-up segments, ids and device serials must neither
// add series (an unauthenticated client could grow the scrape without bound) nor show up in it.
// Scrapes the suite's own service, which trusts X-Forwarded-For: a loopback one may read /metrics.

const LOCAL = { "X-Forwarded-For": "127.0.0.1" };
const base = () => inject("baseUrl");
const address = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
const letters = (n: number) => Array.from({ length: n }, () => String.fromCharCode(97 + randomInt(26))).join("");
const requests = (samples: Sample[], labels: Record<string, string>) =>
  total(samples, "wayline_http_requests_total", labels);

describe("GET /metrics route labels", () => {
  test("GET /sandbox/api/vehicle/<made-up letters> → 401, counted under /sandbox/api/vehicle/[vehicleId]; no made-up segment becomes a label", async () => {
    const from = { "X-Forwarded-For": address() };
    const madeUp = Array.from({ length: 60 }, () => `zq${letters(14)}`);
    const before = await scrape(base(), LOCAL);
    for (const segment of madeUp)
      expect((await request("GET", `${base()}/sandbox/api/vehicle/${segment}`, { headers: from })).status).toBe(401);
    const after = await scrape(base(), LOCAL);
    for (const segment of madeUp) expect(after.reply.text).not.toContain(segment);
    const labels = { method: "GET", route: "/sandbox/api/vehicle/[vehicleId]", status: "401" };
    expect(requests(after.samples, labels) - requests(before.samples, labels)).toBeGreaterThanOrEqual(madeUp.length);
  });

  test("a letters-only device serial in the path is counted under the route's pattern and never appears in a scrape", async () => {
    const driver = await createDriver("sandbox", apps().main.sandbox);
    const serial = `SERIAL${letters(16).toUpperCase()}`;
    await addVehicle("sandbox", driver.accessToken, { deviceId: serial });
    const from = { "X-Forwarded-For": address() };
    const before = await scrape(base(), LOCAL);
    expect(
      (await request("GET", `${base()}/sandbox/api/vehicle/${serial}/`, { token: driver.accessToken, headers: from }))
        .status,
    ).toBe(200);
    expect(
      (await request("GET", `${base()}/v1/api/vehicle/${serial}/trip/`, { token: driver.accessToken, headers: from }))
        .status,
    ).toBe(401);
    const after = await scrape(base(), LOCAL);
    expect(after.reply.text).not.toContain(serial);
    const one = { method: "GET", route: "/sandbox/api/vehicle/[vehicleId]", status: "200" };
    expect(requests(after.samples, one) - requests(before.samples, one)).toBeGreaterThanOrEqual(1);
    const trips = { method: "GET", route: "/v1/api/vehicle/[vehicleId]/trip", status: "401" };
    expect(requests(after.samples, trips) - requests(before.samples, trips)).toBeGreaterThanOrEqual(1);
  });

  test("paths no route serves share one label, (unmatched), whatever their status", async () => {
    const word = `zq${letters(14)}`;
    const from = { "X-Forwarded-For": address() };
    const before = await scrape(base(), LOCAL);
    // A page the site does not have (404), and a path that is not valid percent-encoding, which the
    // server refuses before Next.js (400).
    expect((await send({ method: "GET", path: `/${word}/${word}`, headers: from })).status).toBe(404);
    expect((await send({ method: "GET", path: `/${word}%ZZ`, headers: from })).status).toBe(400);
    // An unknown method on a path outside the API, handed to Next.js.
    await send({ method: "PROPFIND", path: `/${word}`, headers: from });
    const after = await scrape(base(), LOCAL);
    expect(after.reply.text).not.toContain(word);
    const unmatched = (s: Sample[]) => requests(s, { method: "GET", route: "(unmatched)" });
    expect(unmatched(after.samples) - unmatched(before.samples)).toBeGreaterThanOrEqual(2);
  });

  test("route labels are the routes' patterns and public files, as many as the service has at most", async () => {
    // The site's own pages and files, so that the scrape has some of each.
    for (const path of [
      "/",
      "/docs",
      "/favicon.ico",
      "/sandbox/OAuth/authorize",
      "/.well-known/oauth-authorization-server/sandbox",
    ])
      await request("GET", `${base()}${path}`);
    const { samples } = await scrape(base(), LOCAL);
    const routes = new Set(samples.filter((s) => s.name === "wayline_http_requests_total").map((s) => s.labels.route!));
    expect(routes).toContain("/docs");
    expect(routes).toContain("/favicon.ico");
    // The proxy serves the documented spelling by the lower-case route.
    expect(routes).toContain("/sandbox/oauth/authorize");
    expect(routes).toContain("/.well-known/oauth-authorization-server/sandbox");
    expect(routes).toContain("/metrics");
    // Bounded by what the service serves, whatever paths the rest of the suite (the fuzz suite's
    // above all) has sent: each route under v1, sandbox or another [env], each public file, and three more.
    const served = fs
      .readdirSync("app", { recursive: true, encoding: "utf8" })
      .filter((f) => /(^|\/)(route|page)\.tsx?$/.test(f)).length;
    const files = fs.readdirSync("public", { recursive: true, encoding: "utf8" }).length;
    expect(routes.size).toBeLessThanOrEqual(3 * served + files + 3);
  });
});
