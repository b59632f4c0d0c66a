// @module-tag embedded
import { describe, expect, inject, it } from "vitest";
import { api, testSql } from "@/test/helpers/api";
import { driverWithVehicle } from "@/test/helpers/telemetry";

// Ingest writes only if the vehicle row is still the version its read saw (server/telemetry/ingest/write.ts);
// otherwise it writes nothing and the ingest runs again under the row lock. Concurrent posts show
// the outcome (telemetry.test.ts, subscriptions.test.ts); this shows the check itself, by
// changing the vehicle between the read and the write, which HTTP cannot time. The statements
// run on the test's own connection to the service's database.
process.env.DATA_DIR = inject("dataDir");
if (!inject("embedded")) process.env.DATABASE_URL = inject("databaseUrl");

describe("ingest's write checks the vehicle's version", () => {
  it("writes nothing when the vehicle changed after the read, and everything once read again", async () => {
    const { readForIngest } = await import("@/server/telemetry/ingest/read");
    const { writeIngest } = await import("@/server/telemetry/ingest/write");
    const { accessToken: token, vehicleId, account } = await driverWithVehicle();
    const sql = testSql();
    // postgres.js learns the array types with its first query: array parameters need them.
    await sql`select 1`;
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000).toISOString();
    const scope = { environment: "sandbox" as const, accountId: account.id as number };
    const write = (read: NonNullable<Awaited<ReturnType<typeof readForIngest>>>) =>
      writeIngest(sql, [
        {
          environment: "sandbox",
          vehicleId,
          version: read.version,
          state: { ...read.state, running: true, lastDataAt: new Date(at), lastRunningAt: new Date(at) },
          decoded: null,
          createdTrips: [],
          updatedTrips: [],
          sets: [
            {
              recordedAt: at,
              pointsFrom: at,
              pointsTo: at,
              ignitionStatus: "RUNNING",
              tripId: null,
              tripStart: null,
              late: false,
              deviceId: null,
              vin: null,
            },
          ],
          points: [{ set: 0, position: 0, recordedAt: null, key: "GEN_SPEED", value: "42" }],
          events: null,
          alerts: null,
        },
      ]).then(([written]) => written);

    const stale = await readForIngest(sql, { scope, ref: String(vehicleId), timestamps: [at] });
    expect(stale).toMatchObject({ vehicle: { id: vehicleId }, existing: new Map() });
    const renamed = await api("sandbox").post(`/vehicle/${vehicleId}`, { label: "Renamed meanwhile" }, token);
    expect(renamed.status, renamed.text).toBe(200);

    expect(await write(stale!)).toBeNull();
    const none = await api("sandbox").get(`/vehicle/${vehicleId}/dataSet/`, token);
    expect(none.body.totalRecords).toBe(0);
    expect((await api("sandbox").get(`/vehicle/${vehicleId}`, token)).body.vehicle).toMatchObject({
      label: "Renamed meanwhile",
      running: false,
    });

    const fresh = await readForIngest(sql, { scope, ref: String(vehicleId), timestamps: [at] });
    expect(fresh!.version).not.toBe(stale!.version);
    const written = await write(fresh!);
    expect(written?.sets).toHaveLength(1);
    expect(written?.points).toMatchObject([{ dataSetId: written!.sets[0]!.id, position: 0 }]);
    const one = await api("sandbox").get(`/vehicle/${vehicleId}/dataSet/`, token);
    expect(one.body.totalRecords).toBe(1);
    expect(one.body.dataSet[0]).toMatchObject({
      id: written!.sets[0]!.id,
      ignitionStatus: "RUNNING",
      datum: [{ key: "GEN_SPEED", value: "42" }],
    });
    expect((await api("sandbox").get(`/vehicle/${vehicleId}`, token)).body.vehicle).toMatchObject({
      label: "Renamed meanwhile",
      running: true,
    });
  });

  it("a vehicle the caller cannot see reads as nothing", async () => {
    const { readForIngest } = await import("@/server/telemetry/ingest/read");
    const { vehicleId } = await driverWithVehicle();
    const other = await driverWithVehicle();
    const read = await readForIngest(testSql(), {
      scope: { environment: "sandbox", accountId: other.account.id },
      ref: String(vehicleId),
      timestamps: [],
    });
    expect(read).toBeNull();
  });
});
