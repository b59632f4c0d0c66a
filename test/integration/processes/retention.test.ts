import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { request } from "@/test/helpers/api";
import { startAppWithOwnDatabase, type AppWithOwnDatabase } from "@/test/helpers/app-with-own-database";
import { partnerAccount } from "@/test/helpers/partner-account";
import { runScript } from "@/test/helpers/processes";
import { newestOfEachKey, simulatedTrip } from "@/test/helpers/telemetry";

// Data retention (docs/operations.md#data-growth-and-retention): data points older than N days
// are deleted in batches, and the totals the API reports stay exact; data sets and trips stay.

let own: AppWithOwnDatabase;
// The script's answer is its last line (the service's log lines come before it).
const lastLine = (stdout: string) => JSON.parse(stdout.trim().split("\n").pop()!);

beforeAll(async () => {
  own = await startAppWithOwnDatabase("retention", {});
}, 240_000);

afterAll(async () => {
  await own?.stop();
});

describe("npm run retention", () => {
  test(
    "deletes data points older than --days, keeps newer ones, and the data-point totals follow",
    { timeout: 120_000 },
    async () => {
      const api = `${own.app.baseUrl}/sandbox/api`;
      const { token } = await partnerAccount(own);
      const vehicle = await request("POST", `${api}/vehicle/`, { token, json: { label: "Old and new" } });
      expect(vehicle.status, vehicle.text).toBe(200);
      const vehicleId = vehicle.body.vehicle.vehicleId as number;
      // Three trips of 12 data sets and 34 data points (10 of them GEN_SPEED): 40 and 35 days old, and yesterday's.
      for (const daysAgo of [40, 35, 1]) {
        const posted = await request("POST", `${api}/vehicle/${vehicleId}/dataSet/`, {
          token,
          json: simulatedTrip(new Date(Date.now() - daysAgo * 86_400_000)),
        });
        expect(posted.status, posted.text).toBe(200);
      }
      const count = async (path: string) => {
        const r = await request("GET", `${api}/vehicle/${vehicleId}/${path}`, { token });
        expect(r.status, r.text).toBe(200);
        return r.body.totalRecords as number;
      };
      expect(await count("data/")).toBe(3 * 34);
      expect(await count("data/?key=gen_speed")).toBe(30);
      // A second vehicle whose only trip is 40 days old: each key's newest point is older than the cutoff.
      const oldOnly = await request("POST", `${api}/vehicle/`, { token, json: { label: "Old only" } });
      expect(oldOnly.status, oldOnly.text).toBe(200);
      const oldOnlyId = oldOnly.body.vehicle.vehicleId as number;
      const posted = await request("POST", `${api}/vehicle/${oldOnlyId}/dataSet/`, {
        token,
        json: simulatedTrip(new Date(Date.now() - 40 * 86_400_000)),
      });
      expect(posted.status, posted.text).toBe(200);
      const newestOf = (id: number) => newestOfEachKey(api, id, token);
      const newestBefore = await newestOf(vehicleId);
      expect(newestBefore.map((p) => p.key)).toEqual([
        "GEN_HEADING",
        "GEN_SPEED",
        "GEN_TRIP_MILEAGE",
        "GEN_VOLTAGE",
        "GEN_WAYPOINT",
      ]);
      expect(await newestOf(oldOnlyId)).toHaveLength(5);

      // A batch of 16 rows, so that a trip's 34 points take several statements.
      const { stdout } = await runScript("retention.ts", ["--days", "30", "--batch", "16"], own.app.env);
      // No month partition is older than the cutoff on a fresh database (the migration made this month and
      // the next 3): the old points are the default partition's, deleted in batches (partitions.test.ts drops months).
      expect(lastLine(stdout)).toEqual({ days: 30, vehicles: 2, deleted: 3 * 34, partitions: 0, partitionsMade: 0 });
      // Each key's newest point is one the vehicle still has: yesterday's for the first, none for the second.
      expect(await newestOf(vehicleId)).toEqual(newestBefore);
      expect(await newestOf(oldOnlyId)).toEqual([]);

      expect(await count("data/")).toBe(34);
      expect(await count("data/?key=gen_speed")).toBe(10);
      expect(await count("dataSet/")).toBe(36);
      expect(await count("trip/")).toBe(3);

      // Run again: nothing older is left.
      expect(lastLine((await runScript("retention.ts", ["--days", "30"], own.app.env)).stdout)).toEqual({
        days: 30,
        vehicles: 0,
        deleted: 0,
        partitions: 0,
        partitionsMade: 0,
      });
    },
  );
});
