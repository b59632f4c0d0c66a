import { describe, expect, it } from "vitest";
import { api, clientToken } from "@/test/helpers/api";
import { expectApiError } from "@/test/helpers/fixtures";
import { driverGranting, PRECISIONS, type Precision } from "@/test/helpers/grants";
import { webApp } from "@/test/helpers/oauth-flow";
import { dataSet, waypoint, wireTime } from "@/test/helpers/telemetry";

// A post at a time the vehicle already has a data set for is answered with the stored set
// (docs/device-data.md): that is a read of stored data, so it follows the caller's grant exactly
// as GET /vehicle/{id}/dataSet/ does (docs/oauth.md#scopes). An app that may see only approximate
// positions, or none, learns nothing more by posting the timestamps it listed back; one without
// `data` is refused (403) and nothing of its post is written.

const sandbox = api("sandbox");
const LAT = 39.987654;
const LON = -83.012345;
const SHOWN: Record<Precision, string | null> = {
  precise: `${LAT},${LON}`,
  approximate: "39.99,-83.01",
  none: null,
};

type Point = { key: string; value: string | null; translatedValue: string | null };
type StoredSet = { id: number; timestamp: string; datum: Point[] };

/** A driver's vehicle with one data set (a precise position and a speed) an hour ago, posted with the driver's token. */
async function vehicleWithStoredSet(scope: string, location?: Precision) {
  const driver = await driverGranting(webApp(), scope, location);
  const created = await sandbox.post("/vehicle/", { label: "Dup car" }, driver.token);
  expect(created.status, created.text).toBe(200);
  const vehicleId = created.body.vehicle.vehicleId as number;
  const at = new Date(Date.now() - 3_600_000);
  const posted = await sandbox.post(
    `/vehicle/${vehicleId}/dataSet/`,
    dataSet(at, "ON", [waypoint(LAT, LON), { key: "GEN_SPEED", value: "17" }]),
    driver.token,
  );
  expect(posted.status, posted.text).toBe(200);
  return { ...driver, vehicleId, at, storedId: posted.body.dataSet.id as number };
}

const waypointOf = (set: StoredSet) => set.datum.find((d) => d.key === "GEN_WAYPOINT");

describe("a duplicate's answer follows the caller's grant", () => {
  for (const precision of PRECISIONS) {
    it(`location:${precision}: the single post of a listed timestamp answers the stored set as a read shows it`, async () => {
      const v = await vehicleWithStoredSet(`location:${precision} data`);
      const listed = await sandbox.get(`/vehicle/${v.vehicleId}/dataSet/`, v.token);
      expect(listed.status).toBe(200);
      const [read] = listed.body.dataSet as StoredSet[];
      expect(waypointOf(read!)?.value).toBe(SHOWN[precision]);

      const again = await sandbox.post(
        `/vehicle/${v.vehicleId}/dataSet/`,
        { timestamp: read!.timestamp, ignitionStatus: "ON", datum: [] },
        v.token,
      );
      expect(again.status, again.text).toBe(200);
      expect(again.body.dataSet).toEqual(read);
      expect(waypointOf(again.body.dataSet)).toEqual({
        ...waypointOf(read!),
        value: SHOWN[precision],
        translatedValue: SHOWN[precision],
      });
      if (precision !== "precise") expect(again.text).not.toContain(String(LAT));
    });

    it(`location:${precision}: the batch form answers its duplicates as a read shows them, its new sets as posted`, async () => {
      const v = await vehicleWithStoredSet(`location:${precision} data`);
      const fresh = new Date(v.at.getTime() + 60_000);
      const batch = await sandbox.post(
        `/vehicle/${v.vehicleId}/dataSet/`,
        [
          dataSet(fresh, "RUNNING", [waypoint(39.987655, LON)]),
          { timestamp: wireTime(v.at), ignitionStatus: "ON", datum: [] },
        ],
        v.token,
      );
      expect(batch.status, batch.text).toBe(200);
      const [duplicate, posted] = batch.body.dataSet as StoredSet[];
      expect(duplicate!.id).toBe(v.storedId);
      expect(waypointOf(duplicate!)?.value).toBe(SHOWN[precision]);
      expect(duplicate!.datum.find((d) => d.key === "GEN_SPEED")?.value).toBe("17");
      // The poster's own new data set is answered as it posted it (docs/oauth.md#scopes).
      expect(waypointOf(posted!)?.value).toBe(`39.987655,${LON}`);
      const read = (await sandbox.get(`/vehicle/${v.vehicleId}/dataSet/${v.storedId}`, v.token)).body.dataSet;
      expect(duplicate).toEqual(read);
    });
  }

  it("a client-credentials token: duplicates at the precision the vehicle's driver granted the app", async () => {
    const v = await vehicleWithStoredSet("location:approximate data");
    const token = await clientToken(webApp());
    const again = await sandbox.post(
      `/vehicle/${v.vehicleId}/dataSet/`,
      [{ timestamp: wireTime(v.at), ignitionStatus: "OFF", datum: [] }],
      token,
    );
    expect(again.status, again.text).toBe(200);
    expect(waypointOf(again.body.dataSet[0])?.value).toBe("39.99,-83.01");
    expect(again.text).not.toContain(String(LAT));
  });
});

describe("a duplicate for an app without the data scope", () => {
  it("the single post of a stored timestamp → 403 naming the data scope; the stored set is not shown", async () => {
    const v = await vehicleWithStoredSet("location:precise account");
    expectApiError(await sandbox.get(`/vehicle/${v.vehicleId}/dataSet/`, v.token), 403, "FORBIDDEN");
    const again = await sandbox.post(
      `/vehicle/${v.vehicleId}/dataSet/`,
      { timestamp: wireTime(v.at), ignitionStatus: "ON", datum: [] },
      v.token,
    );
    const error = expectApiError(again, 403, "FORBIDDEN");
    expect(error.detail).toContain('"data" scope');
    expect(again.text).not.toContain(String(LAT));
    expect(again.text).not.toContain("GEN_SPEED");
  });

  it("a batch holding one → 403, and none of its data sets is written", async () => {
    const v = await vehicleWithStoredSet("location:precise account");
    const later = new Date(v.at.getTime() + 60_000);
    const again = await sandbox.post(
      `/vehicle/${v.vehicleId}/dataSet/`,
      [
        dataSet(later, "RUNNING", [waypoint(40.1, -83.1)]),
        { timestamp: wireTime(v.at), ignitionStatus: "ON", datum: [] },
      ],
      v.token,
    );
    expectApiError(again, 403, "FORBIDDEN");
    expect(again.text).not.toContain(String(LAT));
    // The vehicle (not gated by `data`) still stands where the stored set left it.
    const vehicle = (await sandbox.get(`/vehicle/${v.vehicleId}`, v.token)).body.vehicle;
    expect(vehicle.lastWaypoint).toMatchObject({ latitude: LAT, longitude: LON, timestamp: wireTime(v.at) });
    // A post of new data sets alone is still taken: posting needs no `data`.
    const fresh = await sandbox.post(
      `/vehicle/${v.vehicleId}/dataSet/`,
      dataSet(later, "RUNNING", [waypoint(40.1, -83.1)]),
      v.token,
    );
    expect(fresh.status, fresh.text).toBe(200);
    expect(waypointOf(fresh.body.dataSet)?.value).toBe("40.1,-83.1");
  });
});
