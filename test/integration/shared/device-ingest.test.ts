// @module-tag embedded
import postgres from "postgres";
import { describe, expect, inject, it } from "vitest";
import { writeBatch } from "@/server/devices/ingest/batch";
import { submitRecords } from "@/server/devices/ingest/queue";
import { dataPointsOf, knotsFromKmh } from "@/server/devices/protocols/data-points";
import type { DeviceRecord } from "@/server/devices/protocols/record";
import { api, testSql } from "@/test/helpers/api";
import { contactOf, eventually, readAs, uniqueImei, vehicleForDevice } from "@/test/helpers/devices";
import { driverWithVehicle, wireTime } from "@/test/helpers/telemetry";

// A device's way into the domain (server/devices/ingest/), called here as the gateway's listeners
// call it, on the suite's database, and read back over the API: records become the data sets, trips
// and state that an API post of the same data makes, a resend stores nothing twice (also from two
// transactions at once, as two gateway processes would), a batch held behind a vehicle's row lock
// leaves the next one free (two are written at once), late records keep their own time, trips
// come from the ignition or from motion, and an id no vehicle names is refused and remembered.
// Row locks and batched writes: both databases (the tag).
process.env.DATA_DIR = inject("dataDir");
if (!inject("embedded")) process.env.DATABASE_URL = inject("databaseUrl");

const sandbox = api("sandbox");
/** Times before the moment it is called, in whole seconds: one clock per test, so that its times never shift between calls. */
const clock = () => {
  const now = Math.floor(Date.now() / 1000) * 1000;
  return (minutes: number) => new Date(now - minutes * 60_000);
};

/** A record as a tracker's decoder gives it: a position, a speed in km/h, maybe an ignition. */
function record(
  deviceId: string,
  at: Date,
  opts: { lat?: number; lon?: number; kmh?: number; ignition?: boolean; odometer?: number } = {},
): DeviceRecord {
  const r: DeviceRecord = {
    deviceId,
    fixTime: at,
    position: { latitude: opts.lat ?? 39.9612, longitude: opts.lon ?? -82.9988 },
    valid: true,
    speedKnots: knotsFromKmh(opts.kmh ?? 0),
    course: 90,
    attributes: { SATELLITES: 9 },
  };
  if (opts.ignition !== undefined) r.ignition = opts.ignition;
  if (opts.odometer !== undefined) r.odometerMeters = opts.odometer;
  return r;
}

const submit = (deviceId: string, records: DeviceRecord[], env: "sandbox" | "production" = "sandbox") =>
  submitRecords(env, { deviceId, protocol: "teltonika", records });

const stripIds = (set: {
  id: number;
  vehicleId: number;
  tripId: number | null;
  deviceId: string | null;
  datum: object[];
}) => ({
  ...set,
  id: 0,
  vehicleId: 0,
  tripId: set.tripId === null ? null : 0,
  deviceId: null,
  datum: set.datum.map((d) => ({ ...d, id: 0, dataSetId: 0 })),
});

describe("device records into ingest", () => {
  it("become the data sets, trips and vehicle state that an API post of the same data makes", async () => {
    const minutesAgo = clock();
    const imei = uniqueImei();
    const device = await vehicleForDevice("sandbox", imei);
    const posted = await driverWithVehicle("sandbox");
    const records = [
      record(imei, minutesAgo(50), { ignition: false }),
      record(imei, minutesAgo(49), { ignition: true, kmh: 12, lat: 39.962 }),
      record(imei, minutesAgo(48), { ignition: true, kmh: 40, lat: 39.963 }),
      record(imei, minutesAgo(47), { ignition: true, kmh: 55, lat: 39.964 }),
      record(imei, minutesAgo(46), { ignition: true, kmh: 20, lat: 39.965 }),
      record(imei, minutesAgo(45), { ignition: false, lat: 39.966, odometer: 160_934 }),
    ];
    // In two submissions, as two AVL packets of one connection arrive.
    expect(await submit(imei, records.slice(0, 3))).toBe("stored");
    expect(await submit(imei, records.slice(3))).toBe("stored");

    const statuses = ["OFF", "ON", "RUNNING", "RUNNING", "RUNNING", "OFF"];
    const body = records.map((r, i) => ({
      timestamp: wireTime(r.fixTime),
      ignitionStatus: statuses[i],
      datum: dataPointsOf(r),
    }));
    const post = await sandbox.post(`/vehicle/${posted.vehicleId}/dataSet/`, body, posted.accessToken);
    expect(post.status, post.text).toBe(200);

    const read = async (who: { vehicleId: number; accessToken: string }) => ({
      sets: (await readAs("sandbox", who.accessToken, `/vehicle/${who.vehicleId}/dataSet/?sortOrder=asc`)).dataSet,
      trips: (await readAs("sandbox", who.accessToken, `/vehicle/${who.vehicleId}/trip/`)).trip,
      vehicle: (await readAs("sandbox", who.accessToken, `/vehicle/${who.vehicleId}`)).vehicle,
    });
    const fromDevice = await read(device);
    const fromApi = await read(posted);
    expect(fromDevice.sets.map((s: { ignitionStatus: string }) => s.ignitionStatus)).toEqual(statuses);
    expect(fromDevice.sets.every((s: { deviceId: string }) => s.deviceId === imei)).toBe(true);
    expect(fromDevice.sets.map(stripIds)).toEqual(fromApi.sets.map(stripIds));
    const trip = (t: Record<string, unknown>) => ({ ...t, id: 0, vehicleId: 0 });
    expect(fromDevice.trips).toHaveLength(1);
    expect(fromDevice.trips.map(trip)).toEqual(fromApi.trips.map(trip));
    const state = (v: Record<string, unknown>) => ({
      lastWaypoint: v.lastWaypoint,
      running: v.running,
      lastRunningTimestamp: v.lastRunningTimestamp,
      mileage: v.mileage,
    });
    expect(state(fromDevice.vehicle)).toEqual(state(fromApi.vehicle));
    expect(fromDevice.vehicle).toMatchObject({ running: false, mileage: 100 });
  });

  it("a resend stores nothing twice, also from two transactions at once (two gateway processes)", async () => {
    const minutesAgo = clock();
    const imei = uniqueImei();
    const device = await vehicleForDevice("sandbox", imei);
    const first = [record(imei, minutesAgo(30), { ignition: true }), record(imei, minutesAgo(29), { ignition: true })];
    expect(await submit(imei, first)).toBe("stored");
    expect(await submit(imei, first)).toBe("stored");
    const next = [record(imei, minutesAgo(28), { ignition: true }), record(imei, minutesAgo(27), { ignition: false })];
    const both = await Promise.all([
      writeBatch("sandbox", [{ deviceId: imei, protocol: "teltonika", records: next }]),
      writeBatch("sandbox", [{ deviceId: imei, protocol: "teltonika", records: next }]),
    ]);
    expect(both).toEqual([["stored"], ["stored"]]);
    const sets = (await readAs("sandbox", device.accessToken, `/vehicle/${device.vehicleId}/dataSet/?sortOrder=asc`))
      .dataSet as { timestamp: string; ignitionStatus: string }[];
    expect(sets.map((s) => [s.timestamp, s.ignitionStatus])).toEqual([
      [wireTime(minutesAgo(30)), "ON"],
      [wireTime(minutesAgo(29)), "RUNNING"],
      [wireTime(minutesAgo(28)), "RUNNING"],
      [wireTime(minutesAgo(27)), "OFF"],
    ]);
    const contact = await contactOf("sandbox", imei);
    expect(contact).toMatchObject({ protocol: "teltonika", records_on_day: 4, ignition: false });
    expect(contact!.last_record_at!.getTime()).toBe(minutesAgo(27).getTime());
  });

  // Two batches of an environment are written at once (queue.ts): one held behind a vehicle's row lock
  // leaves the next free. PostgreSQL only: the embedded database serves one transaction at a time.
  it.skipIf(inject("embedded"))(
    "a vehicle whose row another transaction holds stops only its own batch: another device is stored meanwhile",
    async () => {
      const minutesAgo = clock();
      const [held, free] = [uniqueImei(), uniqueImei()];
      const heldVehicle = await vehicleForDevice("sandbox", held);
      const freeVehicle = await vehicleForDevice("sandbox", free);
      // Another writer of the vehicle (an API post's transaction, say) holds its row.
      const other = postgres(inject("databaseUrl"), { max: 1, onnotice: () => {} });
      const holder = await other.reserve();
      try {
        await holder`begin`;
        await holder`select 1 from vehicles where id = ${heldVehicle.vehicleId} for update`;
        const heldOutcome = submit(held, [record(held, minutesAgo(5), { ignition: true })]);
        // Its batch waits on the lock before the next submission arrives, so the two cannot go together.
        await eventually(
          async () =>
            (
              await testSql()`select count(*)::int as n from pg_stat_activity
                               where wait_event_type = 'Lock' and query like '%for update of v%'`
            )[0]!.n as number,
          (n) => n > 0,
        );
        const freeOutcome = await Promise.race([
          submit(free, [record(free, minutesAgo(5), { ignition: true })]),
          new Promise((resolve) => setTimeout(() => resolve("still waiting behind the held vehicle"), 15_000)),
        ]);
        expect(freeOutcome).toBe("stored");
        const still = await Promise.race([heldOutcome, Promise.resolve("waiting")]);
        expect(still).toBe("waiting");
        await holder`rollback`;
        expect(await heldOutcome).toBe("stored");
      } finally {
        holder.release();
        await other.end();
      }
      for (const v of [heldVehicle, freeVehicle]) {
        const sets = (await readAs("sandbox", v.accessToken, `/vehicle/${v.vehicleId}/dataSet/`)).dataSet as {
          timestamp: string;
        }[];
        expect(sets.map((x) => x.timestamp)).toEqual([wireTime(minutesAgo(5))]);
      }
    },
  );

  it("late and out-of-order records are stored at their own times; lastWaypoint never moves back", async () => {
    const minutesAgo = clock();
    const imei = uniqueImei();
    const device = await vehicleForDevice("sandbox", imei);
    expect(await submit(imei, [record(imei, minutesAgo(10), { ignition: true, lat: 40.1 })])).toBe("stored");
    // A tracker emptying its buffer: older records, newest first.
    expect(
      await submit(imei, [
        record(imei, minutesAgo(15), { ignition: true, lat: 40.05 }),
        record(imei, minutesAgo(20), { ignition: true, lat: 40.0 }),
      ]),
    ).toBe("stored");
    const sets = (await readAs("sandbox", device.accessToken, `/vehicle/${device.vehicleId}/dataSet/?sortOrder=asc`))
      .dataSet as { timestamp: string }[];
    expect(sets.map((s) => s.timestamp)).toEqual([minutesAgo(20), minutesAgo(15), minutesAgo(10)].map(wireTime));
    const vehicle = (await readAs("sandbox", device.accessToken, `/vehicle/${device.vehicleId}`)).vehicle;
    expect(vehicle.lastWaypoint).toMatchObject({ timestamp: wireTime(minutesAgo(10)), latitude: 40.1 });
  });

  it("a device that reports no ignition makes its trips from motion: moving opens, 5 minutes still closes", async () => {
    const minutesAgo = clock();
    const id = uniqueImei();
    const device = await vehicleForDevice("sandbox", id);
    const at = (s: number) => new Date(minutesAgo(40).getTime() + s * 1000);
    const still = (s: number) => record(id, at(s), { kmh: 0, lat: 40.01 });
    expect(await submit(id, [still(0), record(id, at(60), { kmh: 30 }), record(id, at(120), { kmh: 45 })])).toBe(
      "stored",
    );
    expect(await submit(id, [still(180), still(400), still(420), still(500)])).toBe("stored");
    const sets = (await readAs("sandbox", device.accessToken, `/vehicle/${device.vehicleId}/dataSet/?sortOrder=asc`))
      .dataSet as { ignitionStatus: string }[];
    expect(sets.map((s) => s.ignitionStatus)).toEqual(["OFF", "ON", "RUNNING", "RUNNING", "RUNNING", "OFF", "OFF"]);
    const trips = (await readAs("sandbox", device.accessToken, `/vehicle/${device.vehicleId}/trip/`)).trip;
    expect(trips).toHaveLength(1);
    expect(trips[0]).toMatchObject({ startTime: wireTime(at(60)), endTime: wireTime(at(420)) });
  });

  it("subscriptions see device data and the location pause holds its positions back", async () => {
    const minutesAgo = clock();
    const imei = uniqueImei();
    const device = await vehicleForDevice("sandbox", imei);
    const sub = await sandbox.post(
      `/vehicle/${device.vehicleId}/eventSubscription/IGNITIONSTATUS/`,
      { postUrl: "https://hooks.partner.example/device" },
      device.clientToken,
    );
    expect(sub.status, sub.text).toBe(200);
    expect(await submit(imei, [record(imei, minutesAgo(5), { ignition: true, lat: 41 })])).toBe("stored");
    const notes = (await readAs("sandbox", device.clientToken, `/vehicle/${device.vehicleId}/eventNotification/`))
      .notifications as { _type?: string; type?: string }[];
    expect(notes).toHaveLength(1);

    await testSql()`update vehicles set location_paused = true where id = ${device.vehicleId}`;
    expect(await submit(imei, [record(imei, minutesAgo(4), { ignition: true, lat: 42 })])).toBe("stored");
    const newest = (await readAs("sandbox", device.accessToken, `/vehicle/${device.vehicleId}/dataSet/`)).dataSet[0];
    expect(newest.datum.map((d: { key: string }) => d.key)).not.toContain("GEN_WAYPOINT");
    const vehicle = (await readAs("sandbox", device.accessToken, `/vehicle/${device.vehicleId}`)).vehicle;
    expect(vehicle.lastWaypoint).toMatchObject({ latitude: 41 });
  });

  it("in production a device reports for its vehicle without any app approved as a data provider", async () => {
    const minutesAgo = clock();
    const imei = uniqueImei();
    const device = await vehicleForDevice("production", imei);
    expect(await submit(imei, [record(imei, minutesAgo(3), { ignition: true })], "production")).toBe("stored");
    expect(await submit(imei, [record(imei, minutesAgo(2), { ignition: true })], "sandbox")).toBe("unknown");
    const sets = (await readAs("production", device.accessToken, `/vehicle/${device.vehicleId}/dataSet/`)).dataSet;
    expect(sets).toHaveLength(1);
  });

  it("an id no vehicle names is refused, counted and remembered with its protocol; the account's deletion takes a named one's", async () => {
    const minutesAgo = clock();
    const imei = uniqueImei();
    expect(await submit(imei, [record(imei, minutesAgo(1))])).toBe("unknown");
    expect(await submit(imei, [record(imei, minutesAgo(1))])).toBe("unknown");
    expect(await contactOf("sandbox", imei)).toMatchObject({
      protocol: "teltonika",
      unknown_contacts: 2,
      last_refusal_reason: "no vehicle has this deviceId",
      last_record_at: null,
    });

    const device = await vehicleForDevice("sandbox", imei);
    expect(await submit(imei, [record(imei, minutesAgo(1), { ignition: true })])).toBe("stored");
    expect(await contactOf("sandbox", imei)).toMatchObject({ unknown_contacts: 2, records_on_day: 1 });
    const deleted = await sandbox.del(`/account/${device.account.id}`, device.clientToken);
    expect(deleted.status, deleted.text).toBe(200);
    expect(await contactOf("sandbox", imei)).toBeUndefined();
  });
});
