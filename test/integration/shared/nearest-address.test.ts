import { describe, expect, it } from "vitest";
import { api, testSql } from "@/test/helpers/api";
import { driverGranting, PRECISIONS, type Precision } from "@/test/helpers/grants";
import { webApp } from "@/test/helpers/oauth-flow";
import { dataSet, waypoint, wireTime } from "@/test/helpers/telemetry";

// GEN_NEAREST_ADDRESS says where the vehicle is, so it is a position wherever positions are ruled
// (docs/oauth.md#scopes, docs/driver-site.md#pause-location): not stored while the driver has paused
// location, never shown to an app without precise location (an address cannot be rounded: its
// value and translatedValue are null, and trips' data leave it out as they leave GEN_WAYPOINT
// out), and counted as location in the access log.

const sandbox = api("sandbox");
const address = (n: number) => `${n} Nearest Address Rd, Columbus`;

type Point = { key: string; value: string | null; translatedValue: string | null };

/** A driver of the shared web app at this grant, with a vehicle. */
async function driverWithVehicle(scope: string, location?: Precision) {
  const driver = await driverGranting(webApp(), scope, location);
  const created = await sandbox.post("/vehicle/", { label: "Address car" }, driver.token);
  expect(created.status, created.text).toBe(200);
  const { vehicleId, accountId } = created.body.vehicle as { vehicleId: number; accountId: number };
  const post = async (at: Date, status: "ON" | "RUNNING" | "OFF", n: number) => {
    const res = await sandbox.post(
      `/vehicle/${vehicleId}/dataSet/`,
      dataSet(at, status, [
        waypoint(39.96 + n / 1000, -83),
        { key: "GEN_NEAREST_ADDRESS", value: address(n) },
        { key: "GEN_SPEED", value: String(n) },
      ]),
      driver.token,
    );
    expect(res.status, res.text).toBe(200);
    return res.body.dataSet as { id: number; datum: Point[] };
  };
  return { ...driver, vehicleId, accountId, post };
}

const addressesIn = (points: Point[]) => points.filter((p) => p.key === "GEN_NEAREST_ADDRESS");

describe("GEN_NEAREST_ADDRESS while location is paused", () => {
  it("is not stored (like GEN_WAYPOINT); the rest of the data set is; after resuming it is stored again", async () => {
    const d = await driverWithVehicle("location:precise data account");
    const at = (m: number) => new Date(Date.now() - (30 - m) * 60_000);
    await d.post(at(1), "ON", 1);
    const paused = await d.browser.request("POST", `/me/vehicles/${d.vehicleId}/location-pause`, {
      json: { paused: true },
    });
    expect(paused.status, paused.text.slice(0, 300)).toBe(200);

    const during = await d.post(at(2), "RUNNING", 2);
    expect(during.datum.map((p) => p.key)).toEqual(["GEN_SPEED"]);
    const v = `/vehicle/${d.vehicleId}`;
    for (const path of [
      `${v}/data/?key=GEN_NEAREST_ADDRESS`,
      `${v}/data/?mostRecentOnly=true`,
      `${v}/dataSet/`,
      `${v}/dataSet/${during.id}`,
      `${v}/trip/?includeData=true`,
      "/account/data/",
    ]) {
      const res = await sandbox.get(path, d.token);
      expect(res.status, path).toBe(200);
      expect(res.text, path).not.toContain(address(2));
    }
    const stored = (await sandbox.get(`${v}/data/?key=GEN_NEAREST_ADDRESS`, d.token)).body.data as Point[];
    expect(stored.map((p) => p.value)).toEqual([address(1)]);
    const latest = (await sandbox.get(`${v}/data/?mostRecentOnly=true`, d.token)).body.data as Point[];
    expect(addressesIn(latest).map((p) => p.value)).toEqual([address(1)]);
    expect(latest.find((p) => p.key === "GEN_SPEED")?.value).toBe("2");

    await d.browser.request("POST", `/me/vehicles/${d.vehicleId}/location-pause`, { json: { paused: false } });
    await d.post(at(3), "OFF", 3);
    const again = (await sandbox.get(`${v}/data/?key=GEN_NEAREST_ADDRESS`, d.token)).body.data as Point[];
    expect(again.map((p) => p.value).sort()).toEqual([address(1), address(3)]);
  });
});

describe("GEN_NEAREST_ADDRESS at each location precision", () => {
  for (const precision of PRECISIONS) {
    it(`location:${precision}: every read ${precision === "precise" ? "shows" : "hides"} its value`, async () => {
      const d = await driverWithVehicle(`location:${precision} data account`, precision);
      const start = new Date(Date.now() - 20 * 60_000);
      const first = await d.post(start, "ON", 1);
      // The poster's own new data set is answered as posted (docs/oauth.md#scopes).
      expect(addressesIn(first.datum).map((p) => p.value)).toEqual([address(1)]);
      await d.post(new Date(start.getTime() + 60_000), "OFF", 2);
      // The first call of sinceLastCall sets the cursor; the next answers what came after it.
      expect((await sandbox.get("/account/data/?sinceLastCall=true", d.token)).status).toBe(200);
      await d.post(new Date(start.getTime() + 120_000), "ON", 3);

      const shown = (n: number) => (precision === "precise" ? address(n) : null);
      const v = `/vehicle/${d.vehicleId}`;
      const trips = (await sandbox.get(`${v}/trip/?includeData=true`, d.token)).body.trip as {
        id: number;
        data: { datum: Point[] }[];
      }[];
      const reads: [string, (body: any) => Point[]][] = [
        [`${v}/data/?key=GEN_NEAREST_ADDRESS`, (b) => b.data],
        [`${v}/data/?mostRecentOnly=true`, (b) => addressesIn(b.data)],
        [`${v}/data/?mostRecentOnly=true&key=GEN_NEAREST_ADDRESS`, (b) => b.data],
        [`${v}/dataSet/`, (b) => b.dataSet.flatMap((s: { datum: Point[] }) => addressesIn(s.datum))],
        [`${v}/dataSet/${first.id}`, (b) => addressesIn(b.dataSet.datum)],
        [`${v}/trip/?includeData=true`, (b) => b.trip.flatMap((t: (typeof trips)[number]) => tripAddresses(t))],
        [`${v}/trip/${trips.at(-1)!.id}`, (b) => tripAddresses(b.trip)],
        ["/account/data/", (b) => addressesIn(b.data)],
        ["/account/data/?sinceLastCall=true", (b) => addressesIn(b.data)],
      ];
      for (const [path, addresses] of reads) {
        let res = await sandbox.get(path, d.token);
        // sinceLastCall hands out a point once every older transaction has ended (another file's
        // write may still run); an empty answer leaves the cursor where it was.
        while (path.includes("sinceLastCall") && res.status === 200 && res.body.data.length === 0) {
          await new Promise((r) => setTimeout(r, 200));
          res = await sandbox.get(path, d.token);
        }
        expect(res.status, `${path}: ${res.text}`).toBe(200);
        const found = addresses(res.body);
        if (path.includes("/trip/") && precision !== "precise") {
          // Trips without a path leave location points out altogether.
          expect(found, path).toEqual([]);
        } else {
          expect(found.length, path).toBeGreaterThan(0);
          for (const p of found) {
            if (precision === "precise") expect(p.value, path).toMatch(/^\d Nearest Address Rd, Columbus$/);
            else expect(p.value, path).toBeNull();
            expect(p.translatedValue, path).toBe(p.value);
          }
        }
        if (precision !== "precise") expect(res.text, path).not.toContain("Nearest Address Rd");
      }

      // A post that repeats a stored timestamp: the stored address at the grant's precision.
      const again = await sandbox.post(
        `${v}/dataSet/`,
        { timestamp: wireTime(start), ignitionStatus: "ON", datum: [] },
        d.token,
      );
      expect(again.status, again.text).toBe(200);
      expect(addressesIn(again.body.dataSet.datum).map((p) => p.value)).toEqual([shown(1)]);
    });
  }
});

const tripAddresses = (t: { data: { datum: Point[] }[] }) => t.data.flatMap((s) => addressesIn(s.datum));

describe("GEN_NEAREST_ADDRESS in the access log", () => {
  it("an answer carrying addresses counts as location, not vehicle data", async () => {
    const d = await driverWithVehicle("location:precise data account");
    const res = await sandbox.post(
      `/vehicle/${d.vehicleId}/dataSet/`,
      dataSet(new Date(Date.now() - 60_000), "ON", [{ key: "GEN_NEAREST_ADDRESS", value: address(9) }]),
      d.token,
    );
    expect(res.status, res.text).toBe(200);
    const counts = async () => {
      const rows = await testSql()<{ category: string; n: number }[]>`
        select category, sum(count)::int as n from access_counts where account_id = ${d.accountId} group by category`;
      return Object.fromEntries(rows.map((r) => [r.category, r.n])) as Record<string, number>;
    };
    // The vehicle's creation counted as vehicle data (no position yet); the post counts nothing.
    await expect.poll(async () => (await counts()).vehicle_data, { timeout: 10_000 }).toBe(1);
    const read = await sandbox.get(`/vehicle/${d.vehicleId}/data/?key=GEN_NEAREST_ADDRESS`, d.token);
    expect(read.body.data.map((p: Point) => p.value)).toEqual([address(9)]);
    await expect
      .poll(
        async () => {
          const c = await counts();
          return (c.location ?? 0) + (c.vehicle_data ?? 0);
        },
        { timeout: 10_000 },
      )
      .toBe(2);
    expect(await counts()).toMatchObject({ location: 1, vehicle_data: 1 });
  });
});
