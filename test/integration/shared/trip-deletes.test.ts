// @module-tag embedded
import { describe, expect, it } from "vitest";
import { api, createDriver, testSql } from "@/test/helpers/api";
import { addVehicle, apps } from "@/test/helpers/fixtures";
import { dataSet, waypoint } from "@/test/helpers/telemetry";

// A data set's trip is not a foreign key (db/migrations/0033): the statement trigger
// trips_unset_data_sets does what the key's ON DELETE SET NULL did. Trips go only with their
// vehicle today; these delete them as any future code or an operator might.

const sandbox = api("sandbox");
const minutesAgo = (m: number) => new Date(Math.floor(Date.now() / 60_000) * 60_000 - m * 60_000);

/** A vehicle with two trips of two data sets each. */
async function vehicleWithTwoTrips() {
  const driver = await createDriver("sandbox", apps().main.sandbox);
  const { vehicleId } = await addVehicle("sandbox", driver.accessToken);
  const posted = await sandbox.post(
    `/vehicle/${vehicleId}/dataSet/`,
    [
      dataSet(minutesAgo(40), "ON", [waypoint(39.9, -83)]),
      dataSet(minutesAgo(35), "OFF", [waypoint(39.91, -83)]),
      dataSet(minutesAgo(20), "ON", [waypoint(39.92, -83)]),
      dataSet(minutesAgo(15), "OFF", [waypoint(39.93, -83)]),
    ],
    driver.accessToken,
  );
  expect(posted.status, posted.text).toBe(200);
  const trips = await testSql()<
    { id: number }[]
  >`select id::int from trips where vehicle_id = ${vehicleId} order by start_time`;
  expect(trips).toHaveLength(2);
  return { vehicleId, trips: trips.map((t) => t.id) };
}

const setTrips = async (vehicleId: number) =>
  (
    await testSql()<
      { trip: number | null }[]
    >`select trip_id::int as trip from data_sets where vehicle_id = ${vehicleId} order by recorded_at`
  ).map((r) => r.trip);

describe("deleting a trip", () => {
  it("unsets the trip of its data sets, and leaves the other trip's", async () => {
    const { vehicleId, trips } = await vehicleWithTwoTrips();
    expect(await setTrips(vehicleId)).toEqual([trips[0], trips[0], trips[1], trips[1]]);

    await testSql()`delete from trips where id = ${trips[0]!}`;
    expect(await setTrips(vehicleId)).toEqual([null, null, trips[1], trips[1]]);
  });

  it("with its vehicle takes the vehicle's data sets and points along", async () => {
    const { vehicleId } = await vehicleWithTwoTrips();
    const kept = await vehicleWithTwoTrips();

    await testSql()`delete from vehicles where id = ${vehicleId}`;
    const [left] = await testSql()<
      { trips: number; sets: number; points: number }[]
    >`select (select count(*) from trips where vehicle_id = ${vehicleId})::int as trips,
             (select count(*) from data_sets where vehicle_id = ${vehicleId})::int as sets,
             (select count(*) from data_points where vehicle_id = ${vehicleId})::int as points`;
    expect(left).toEqual({ trips: 0, sets: 0, points: 0 });
    expect(await setTrips(kept.vehicleId)).toEqual([kept.trips[0], kept.trips[0], kept.trips[1], kept.trips[1]]);
  });
});
