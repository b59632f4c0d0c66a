import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, testSql } from "@/test/helpers/api";
import { eventually, uniqueImei, vehicleForDevice } from "@/test/helpers/devices";
import { startTestGateway, type TestGateway } from "@/test/helpers/gateway";
import { reportSilentDevices } from "@/server/devices/silence";
import { env } from "@/server/platform/env";
import { startSilenceWatch } from "@/worker/silence";

// Silent devices (docs/devices.md#silent-devices): an OsmAnd record over real HTTP to the gateway in
// this process arms the device's silence DEVICE_SILENT_MINUTES after it was stored; once that has
// passed (moved into the past here rather than waited for: the threshold is minutes, and the files of
// a Vitest worker share one environment), the worker's silence watch, started here, makes one
// VEHICLEDISCONNECTED notification, read back over the API; a further sweep makes none; a new record
// re-arms it. And the sweep's read of due devices uses the partial index, not a walk of every device.

let gw: TestGateway;
let watch: { stop(): Promise<void> };
beforeAll(async () => {
  gw = await startTestGateway();
  // Sweeps every 0.1 s, whatever the threshold the armed devices were given.
  watch = startSilenceWatch({ silentMinutes: 0.01 });
});
afterAll(async () => {
  await watch.stop();
  await gw.stop();
});

const sandbox = api("sandbox");
const send = (id: string) =>
  fetch(
    `http://127.0.0.1:${gw.port("sandbox", "osmand")}/?id=${id}&timestamp=${Math.floor(Date.now() / 1000)}&lat=40.7232&lon=-74.0061&speed=0`,
  );

async function disconnections(vehicleId: number, token: string) {
  const res = await sandbox.get(`/vehicle/${vehicleId}/eventNotification/?searchLimit=50&sortOrder=asc`, token);
  expect(res.status, res.text).toBe(200);
  return (res.body.notifications as { _type: string; recordedEvent: boolean; recordedWaypoint: unknown }[]).filter(
    (n) => n._type === "VEHICLEDISCONNECTED",
  );
}

/** The silence's due time of `id`, armed by its last stored record, as if it had passed just now. */
async function silenceHasPassed(id: string) {
  const [armed] = await testSql()<{ stored_at: Date; silent_at: Date | null }[]>`
    select stored_at, silent_at from device_contacts where environment = 'sandbox' and device_id = ${id}`;
  expect(armed?.silent_at).toBeInstanceOf(Date);
  expect(armed!.silent_at!.getTime() - armed!.stored_at.getTime()).toBeCloseTo(
    env().DEVICE_SILENT_MINUTES * 60_000,
    -1,
  );
  await testSql()`update device_contacts set silent_at = now() where environment = 'sandbox' and device_id = ${id}`;
}

/** Waits until the vehicle has `count` VEHICLEDISCONNECTED notifications (bounded). */
const sweptTo = (vehicleId: number, token: string, count: number) =>
  eventually(
    () => disconnections(vehicleId, token),
    (found) => found.length >= count,
    20_000,
  );

describe("a device that goes silent", () => {
  it("stores a record, stays silent past DEVICE_SILENT_MINUTES → one VEHICLEDISCONNECTED; a new record re-arms it", async () => {
    const id = uniqueImei();
    const car = await vehicleForDevice("sandbox", id);
    const sub = await sandbox.post(
      `/vehicle/${car.vehicleId}/eventSubscription/VEHICLEDISCONNECTED/`,
      { notificationPeriod: "CONTINUOUS", postUrl: "https://hooks.partner.example/wayline" },
      car.accessToken,
    );
    expect(sub.status, sub.text).toBe(200);

    expect((await send(id)).status).toBe(200);
    await silenceHasPassed(id);

    const first = await sweptTo(car.vehicleId, car.accessToken, 1);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({
      recordedEvent: true,
      recordedWaypoint: { latitude: 40.7232, longitude: -74.0061 },
    });

    // Reported once: the silence is cleared, and sweeping again finds nothing of it.
    const [cleared] = await testSql()<{ silent_at: Date | null }[]>`
      select silent_at from device_contacts where environment = 'sandbox' and device_id = ${id}`;
    expect(cleared?.silent_at).toBeNull();
    const again = await reportSilentDevices({ limit: 1000 });
    expect(again.map((d) => d.deviceId)).not.toContain(id);
    expect(await disconnections(car.vehicleId, car.accessToken)).toHaveLength(1);

    // A new record re-arms it: the next silence is reported again.
    expect((await send(id)).status).toBe(200);
    await silenceHasPassed(id);
    expect(await sweptTo(car.vehicleId, car.accessToken, 2)).toHaveLength(2);
  });

  it("the sweep's read of due devices uses device_contacts_silent_idx", async () => {
    const plan = await testSql().begin(async (tx) => {
      await tx`set local enable_seqscan = off`;
      return tx<{ "QUERY PLAN": string }[]>`
        explain select c.environment, c.device_id from device_contacts c
         where c.silent_at is not null and c.silent_at <= now() order by c.silent_at limit 500`;
    });
    expect(plan.map((r) => r["QUERY PLAN"]).join("\n")).toContain("device_contacts_silent_idx");
  });
});
