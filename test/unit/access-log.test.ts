import { describe, expect, it } from "vitest";
import { CATEGORY_BIT } from "@/common/access/categories";
import { csvLine } from "@/server/access-log/csv";
import { addCounts, noteAccess, takePending } from "@/server/access-log/recorder";
import { accessRules } from "@/server/access-log/rules";
import { geojsonFeature, gpxTrack, type ExportTrip } from "@/server/surfaces/driver/export/formats";

// The access log's pure parts: what an item counts as, the fold of an answer into hourly counts
// (once per account), the CSV's quoting; and the export's trip formats at their edges.

const { location, vehicle_data: vehicleData, identity, events } = CATEGORY_BIT;
const HOUR = 3_600_000;

describe("access rules", () => {
  it("a vehicle counts location only with a position; a data point by its key; notifications by type", () => {
    expect(accessRules.vehicle({ accountId: 3, lastWaypoint: null })).toEqual({
      accountId: 3,
      vehicleId: null,
      mask: vehicleData,
    });
    expect(accessRules.vehicle({ accountId: 3, lastWaypoint: { latitude: 1, longitude: 2 } })!.mask).toBe(
      vehicleData | location,
    );
    expect(accessRules.dataPoint({ vehicleId: 9, key: "GEN_WAYPOINT" })!.mask).toBe(location);
    expect(accessRules.dataPoint({ vehicleId: 9, key: "GEN_SPEED" })!.mask).toBe(vehicleData);
    expect(accessRules.dataSet({ vehicleId: 9, datum: [] })).toBeNull();
    expect(accessRules.account({ id: 4 })).toEqual({ accountId: 4, vehicleId: null, mask: identity });
    expect(accessRules.notification({ accountId: null, vehicleId: 9, _type: "GEOFENCE" })!.mask).toBe(location);
    expect(accessRules.notification({ accountId: 4, vehicleId: 9, _type: "IGNITIONSTATUS" })!.mask).toBe(events);
  });
});

describe("the accumulator", () => {
  it("an answer counts once per account and category, whatever the number of items; a user token's answer is its account's", () => {
    takePending();
    const at = 10 * HOUR + 5;
    noteAccess({
      appId: 1,
      accountId: null,
      marks: [
        { accountId: 7, vehicleId: null, mask: vehicleData },
        { accountId: 7, vehicleId: null, mask: vehicleData | location },
        { accountId: 8, vehicleId: null, mask: vehicleData },
      ],
      at,
    });
    noteAccess({ appId: 1, accountId: 7, marks: [{ accountId: null, vehicleId: 5, mask: identity }], at: at + 10 });
    noteAccess({ appId: 1, accountId: 7, marks: [null], at });
    const { counts, unresolved } = takePending();
    expect(unresolved).toEqual([]);
    const rows = [...counts.values()].map((c) => [c.accountId, c.bit, c.hour, c.count]).sort();
    expect(rows).toEqual(
      [
        [7, vehicleData, 10 * HOUR, 1],
        [7, location, 10 * HOUR, 1],
        [7, identity, 10 * HOUR, 1],
        [8, vehicleData, 10 * HOUR, 1],
      ].sort(),
    );
  });

  it("answers naming vehicles only wait to be resolved; counts of the same key add up, keeping the latest time", () => {
    takePending();
    noteAccess({ appId: 2, accountId: null, marks: [{ accountId: null, vehicleId: 5, mask: location }], at: 1 });
    const { counts, unresolved } = takePending();
    expect(counts.size).toBe(0);
    expect(unresolved).toHaveLength(1);
    addCounts(counts, 2, 7, location, 2 * HOUR + 1);
    addCounts(counts, 2, 7, location, 2 * HOUR + 9);
    expect([...counts.values()]).toEqual([
      { appId: 2, accountId: 7, bit: location, hour: 2 * HOUR, count: 2, last: 2 * HOUR + 9 },
    ]);
  });
});

describe("formats", () => {
  it("CSV quotes what needs it and defuses formulas", () => {
    expect(csvLine([1, 'Fleet "Pro", Inc', "=HYPERLINK(1)", null])).toBe(`1,"Fleet ""Pro"", Inc",'=HYPERLINK(1),\r\n`);
  });

  it("a trip with one position is a GeoJSON Point, with none a null geometry; GPX escapes names", () => {
    const trip: ExportTrip = {
      id: 1,
      vehicleId: 2,
      vehicleName: "Tom & <Jerry>",
      startTime: new Date(0),
      endTime: null,
      mileage: null,
    };
    expect(JSON.parse(geojsonFeature(trip, [{ t: 0, waypoint: "1.5,2.5", speed: null }])).geometry).toEqual({
      type: "Point",
      coordinates: [2.5, 1.5],
    });
    expect(JSON.parse(geojsonFeature(trip, [])).geometry).toBeNull();
    expect(gpxTrack(trip, [])).toContain("<name>Trip 1, Tom &amp; &lt;Jerry&gt;</name>");
  });
});
