// @module-tag embedded
import postgres from "postgres";
import { describe, expect, inject, it } from "vitest";
import { api, testSql } from "@/test/helpers/api";
import { dataSet, driverWithVehicle, waypoint } from "@/test/helpers/telemetry";

// Ingest's writes without a read go in groups: while one statement is in flight, the writes that
// arrive meanwhile go together as the next (server/telemetry/ingest/write-groups.ts). The first two
// tests call the group writer directly, where the order of arrival is in the test's hands; the
// last posts over HTTP from many vehicles at once, where the service groups as it pleases, and
// checks that every answer and every row still belongs to its own vehicle.
process.env.DATA_DIR = inject("dataDir");
if (!inject("embedded")) process.env.DATABASE_URL = inject("databaseUrl");

const sandbox = api("sandbox");
const secondsAgo = (s: number) => new Date(Math.floor(Date.now() / 1000) * 1000 - s * 1000);

/** A RUNNING data set with one GEN_SPEED point for each vehicle, written on an earlier read, as a device's next post is. */
async function writesFor(count: number, at: Date) {
  const { readForIngest } = await import("@/server/telemetry/ingest/read");
  const sql = testSql();
  const iso = at.toISOString();
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const driver = await driverWithVehicle();
      const scope = { environment: "sandbox" as const, accountId: driver.account.id as number };
      const read = (await readForIngest(sql, { scope, ref: String(driver.vehicleId), timestamps: [iso] }))!;
      return {
        driver,
        write: {
          environment: "sandbox" as const,
          vehicleId: driver.vehicleId,
          version: read.version,
          state: { ...read.state, running: true, lastDataAt: at, lastRunningAt: at },
          decoded: null,
          createdTrips: [],
          updatedTrips: [],
          sets: [
            {
              recordedAt: iso,
              pointsFrom: iso,
              pointsTo: iso,
              ignitionStatus: "RUNNING",
              tripId: null,
              tripStart: null,
              late: false,
              deviceId: null,
              vin: null,
            },
          ],
          points: [{ set: 0, position: 0, recordedAt: null, key: "GEN_SPEED", value: String(40 + i) }],
          events: null,
          alerts: null,
          unread: { scope, subscriptionsVersion: read.subscriptionsVersion },
        },
      };
    }),
  );
}

const statementsOf = async (vehicleIds: number[]) =>
  Number(
    (
      await testSql()`select count(distinct tx_id)::int as n from data_points where vehicle_id in ${testSql()(vehicleIds)}`
    )[0]!.n,
  );

describe("ingest's grouped writes", () => {
  it("go as one statement for all that arrived while one was in flight, each vehicle checked and answered as if alone", async () => {
    const { writeInGroup } = await import("@/server/telemetry/ingest/write-groups");
    const at = secondsAgo(60);
    const fleet = await writesFor(5, at);
    // The third vehicle changes after its read: its part of the group must write nothing.
    const stale = fleet[2]!;
    expect(
      (
        await sandbox.post(
          `/vehicle/${stale.driver.vehicleId}`,
          { label: "Renamed meanwhile" },
          stale.driver.accessToken,
        )
      ).status,
    ).toBe(200);

    const written = await Promise.all(fleet.map(({ write }) => writeInGroup(testSql(), write)));

    expect(written[2]).toBeNull();
    const ids = fleet.map((f) => f.driver.vehicleId);
    for (const [i, result] of written.entries()) {
      if (i === 2) continue;
      expect(result?.sets).toHaveLength(1);
      expect(result?.points).toEqual([{ id: expect.any(Number), dataSetId: result!.sets[0]!.id, position: 0 }]);
      const stored = await sandbox.get(
        `/vehicle/${ids[i]}/dataSet/${result!.sets[0]!.id}`,
        fleet[i]!.driver.accessToken,
      );
      expect(stored.body.dataSet).toMatchObject({
        vehicleId: ids[i],
        ignitionStatus: "RUNNING",
        datum: [{ id: result!.points[0]!.id, key: "GEN_SPEED", value: String(40 + i) }],
      });
      expect((await sandbox.get(`/vehicle/${ids[i]}`, fleet[i]!.driver.accessToken)).body.vehicle).toMatchObject({
        running: true,
      });
    }
    const staleVehicle = (await sandbox.get(`/vehicle/${stale.driver.vehicleId}`, stale.driver.accessToken)).body
      .vehicle;
    expect(staleVehicle).toMatchObject({ label: "Renamed meanwhile", running: false });
    // Counted in the tables: the API's totals come from counters, which a leak could miss.
    const [left] =
      await testSql()`select (select count(*) from data_sets where vehicle_id = ${stale.driver.vehicleId})::int as sets,
      (select count(*) from data_points where vehicle_id = ${stale.driver.vehicleId})::int as points`;
    expect(left).toEqual({ sets: 0, points: 0 });
    // The first went alone, the other three written together.
    expect(await statementsOf(ids)).toBe(2);
  });

  it("an error fails only its own write: the group's others are written one by one", async () => {
    const { writeInGroup } = await import("@/server/telemetry/ingest/write-groups");
    const at = secondsAgo(60);
    const fleet = await writesFor(4, at);
    // A data set at the same time, stored by other means: the second vehicle's insert violates
    // the unique key, which fails the statement it shares with the third and fourth.
    const clash = fleet[1]!.driver.vehicleId;
    await testSql()`insert into data_sets (environment, vehicle_id, recorded_at, ignition_status) values ('sandbox', ${clash}, ${at.toISOString()}, 'RUNNING')`;

    const settled = await Promise.allSettled(fleet.map(({ write }) => writeInGroup(testSql(), write)));

    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
    expect(settled[1]).toMatchObject({ status: "rejected", reason: { code: "23505" } });
    for (const i of [0, 2, 3])
      expect((settled[i] as PromiseFulfilledResult<{ sets: unknown[] }>).value.sets).toHaveLength(1);
    // First alone, the failed group of three, then the two that could be written, one by one.
    expect(await statementsOf(fleet.map((f) => f.driver.vehicleId))).toBe(3);
  });

  // Not on the embedded database: its one session runs one transaction at a time, so no other
  // transaction can hold a row while the writes run (the holder would block them all).
  it.skipIf(inject("embedded"))(
    "do not wait for a vehicle row another transaction holds: that write is answered null, the others are written",
    async () => {
      const { writeInGroup } = await import("@/server/telemetry/ingest/write-groups");
      const fleet = await writesFor(3, secondsAgo(60));
      const held = fleet[1]!.driver.vehicleId;
      // The lock is held on a connection of its own for as long as the writes take.
      const holder = postgres(inject("databaseUrl"), { max: 1, onnotice: () => {} });
      try {
        let release!: () => void;
        let locked!: () => void;
        const isLocked = new Promise<void>((resolve) => (locked = resolve));
        const transaction = holder.begin(async (tx) => {
          await tx`select id from vehicles where id = ${held} for update`;
          locked();
          await new Promise<void>((resolve) => (release = resolve));
        });
        await isLocked;
        const written = await Promise.all(fleet.map(({ write }) => writeInGroup(testSql(), write)));
        release();
        await transaction;
        expect(written.map((w) => w?.sets.length ?? null)).toEqual([1, null, 1]);
      } finally {
        await holder.end();
      }
    },
  );

  it("many devices posting at once each get their own data sets, points, trip and notifications", async () => {
    const fleet = await Promise.all(Array.from({ length: 12 }, () => driverWithVehicle()));
    const subscriptions = await Promise.all(
      fleet.map(async ({ vehicleId, accessToken }) => {
        const res = await sandbox.post(
          `/vehicle/${vehicleId}/eventSubscription/WAYPOINT/`,
          { notificationPeriod: "CONTINUOUS", postUrl: "https://hooks.partner.example/wayline" },
          accessToken,
        );
        expect(res.status, res.text).toBe(200);
        return res.body.subscription.id as number;
      }),
    );
    // Each vehicle at its own place, so a point that went to the wrong vehicle would show.
    const set = (i: number, s: number, status: "ON" | "RUNNING") =>
      dataSet(secondsAgo(300 - s * 60), status, [
        waypoint(39 + i / 100, -83 + s / 100),
        { key: "GEN_SPEED", value: i * 10 + s },
      ]);
    const posted = new Map<number, { id: number; tripId: number }[]>();
    for (let s = 0; s < 4; s++) {
      const answers = await Promise.all(
        fleet.map(({ vehicleId, accessToken }, i) =>
          sandbox.post(`/vehicle/${vehicleId}/dataSet/`, set(i, s, s === 0 ? "ON" : "RUNNING"), accessToken),
        ),
      );
      for (const [i, res] of answers.entries()) {
        expect(res.status, res.text).toBe(200);
        const { vehicleId } = fleet[i]!;
        expect(res.body.dataSet).toMatchObject({
          vehicleId,
          datum: [
            { key: "GEN_WAYPOINT", value: set(i, s, "RUNNING").datum[0]!.value },
            { key: "GEN_SPEED", value: String(i * 10 + s) },
          ],
        });
        posted.set(vehicleId, [...(posted.get(vehicleId) ?? []), res.body.dataSet]);
      }
    }
    for (const [i, { vehicleId, accessToken }] of fleet.entries()) {
      const sets = posted.get(vehicleId)!;
      // One trip, opened by the ON and extended by every RUNNING since.
      expect(new Set(sets.map((x) => x.tripId)).size).toBe(1);
      const points = await sandbox.get(`/vehicle/${vehicleId}/data/?key=GEN_SPEED`, accessToken);
      expect(points.body.totalRecords).toBe(4);
      expect(points.body.data.map((d: { value: string }) => d.value).sort()).toEqual(
        [0, 1, 2, 3].map((s) => String(i * 10 + s)).sort(),
      );
      const notes =
        await testSql()`select subscription_id, data_set_id from notifications where vehicle_id = ${vehicleId} order by data_set_id`;
      expect(notes.map((n) => [Number(n.subscription_id), Number(n.data_set_id)])).toEqual(
        sets.map((x) => [subscriptions[i], x.id]),
      );
    }
  });
});
