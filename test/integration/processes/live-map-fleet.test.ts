import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, createDriver } from "@/test/helpers/api";
import { Browser } from "@/test/helpers/browser";
import { addVehicle, apps, uniqueDevice } from "@/test/helpers/fixtures";
import { startApp, type RunningApp } from "@/test/helpers/processes";
import { browserHeaders, openSse } from "@/test/helpers/sse-reader";
import { dataSet, waypoint } from "@/test/helpers/telemetry";

// The live map across a fleet (docs/driver-site.md#live-map): a second app process on the suite's
// PostgreSQL database holds a driver's stream while the suite's own service takes the data set;
// the vehicles' trigger NOTIFYs in the writing transaction, and the other process's listener wakes
// its stream. PostgreSQL only: the embedded database lives inside one process (live-map.test.ts
// shows a write from another session reaching a stream through its wire server).

let other: RunningApp | undefined;

beforeAll(async () => {
  if (inject("embedded")) return;
  other = await startApp({ name: "live-fleet", databaseUrl: inject("databaseUrl"), extraEnv: { SIMULATOR: "0" } });
}, 240_000);

afterAll(async () => {
  await other?.stop();
});

describe.skipIf(inject("embedded"))("live map on two processes", () => {
  it("a data set posted to one process reaches the driver's stream held by the other, without a poll", async () => {
    const driver = await createDriver("sandbox", apps().main.sandbox);
    const vehicle = await addVehicle("sandbox", driver.accessToken, { label: "Fleet car", deviceId: uniqueDevice() });
    const browser = new Browser(undefined, other!.baseUrl);
    expect((await browser.signIn("sandbox", driver.account.username, "correct-horse-1")).problem).toBeNull();
    const stream = await openSse(`${other!.baseUrl}/me/positions/stream`, browserHeaders(browser));
    try {
      expect(stream.status).toBe(200);
      await stream.next("the first snapshot", (e) => e.event === "positions");
      const posted = await api("sandbox").post(
        `/vehicle/${vehicle.vehicleId}/dataSet/`,
        dataSet(new Date(), "RUNNING", [waypoint(40.0123, -83.0123)]),
        driver.accessToken,
      );
      expect(posted.status, posted.text).toBe(200);
      const moved = await stream.next("the position posted to the other process", (e) =>
        e.data.vehicles.some((v: any) => v.lastWaypoint?.latitude === 40.0123),
      );
      expect(moved.data.vehicles).toHaveLength(1);
    } finally {
      stream.close();
    }
  });
});
