import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { baseUrl } from "@/test/helpers/browser";
import { root } from "@/test/helpers/processes";

// The production build (.next, which the suite's service was started on and `npm start` serves)
// has no benchmark baseline: the bare routes are an app of their own, bench/baseline/
// (docs/benchmarks.md#the-baseline-app).

describe("the production build's route table", () => {
  it("has no /bench route, beside the routes it does have", () => {
    const manifest = JSON.parse(
      fs.readFileSync(path.join(root, ".next", "server", "app-paths-manifest.json"), "utf8"),
    ) as Record<string, string>;
    const routes = Object.keys(manifest);
    expect(routes).toContain("/[env]/api/vehicle/route");
    expect(routes).toContain("/api/health/route");
    expect(routes.filter((route) => route.includes("/bench/"))).toEqual([]);
  });

  it("GET /v1/bench/vehicles and POST /bench/ingest → 404", async () => {
    const vehicles = await fetch(`${baseUrl()}/v1/bench/vehicles`, { headers: { Authorization: "Bearer x" } });
    expect(vehicles.status).toBe(404);
    const ingest = await fetch(`${baseUrl()}/bench/ingest?vehicle=1`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ timestamp: "20260101T000000+0000", ignitionStatus: "RUN" }),
    });
    expect(ingest.status).toBe(404);
  });
});
