import { strFromU8, unzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { api, createDriver, testSql, type Credentials } from "@/test/helpers/api";
import { baseUrl, Browser } from "@/test/helpers/browser";
import { addVehicle, createPartnerApp, expectApiError, uniqueDevice } from "@/test/helpers/fixtures";
import { waitFor } from "@/test/helpers/delivery-fixture";
import { simulatedTrip } from "@/test/helpers/telemetry";
import { csvLine } from "@/server/access-log/csv";

// The access log (docs/driver-site.md#data-access) and "Download my data", over real HTTP on the
// suite's service (its access log flushes every 0.5 s): exact counts per category after real API
// answers, the driver's CSV, the ZIP parsed back, and the refusals. Each test's driver is new and
// reached by an app of this file only, so no other test's requests count against it.

const PASSWORD = "correct-horse-1";
let creds: Credentials;

beforeAll(async () => {
  creds = (await createPartnerApp()).sandbox;
}, 60_000);

type Counts = Record<string, number>;

async function countsOf(accountId: number): Promise<Counts> {
  const rows = await testSql()<{ category: string; n: number }[]>`
    select category, sum(count)::int as n from access_counts where account_id = ${accountId}
     group by category order by category`;
  return Object.fromEntries(rows.map((r) => [r.category, r.n]));
}

/** Waits until the flushed counts are `expected`, then returns them (they then stay so: asserted by the caller). */
async function settledCounts(accountId: number, expected: Counts): Promise<Counts> {
  await waitFor(async () => JSON.stringify(await countsOf(accountId)) === JSON.stringify(sorted(expected)), {
    timeoutMs: 10_000,
    what: "the access counts",
  }).catch(() => {});
  return countsOf(accountId);
}

const sorted = (c: Counts) => Object.fromEntries(Object.entries(c).sort(([a], [b]) => a.localeCompare(b)));

async function driverWithTrip() {
  const driver = await createDriver("sandbox", creds);
  const vehicle = await addVehicle("sandbox", driver.accessToken, { label: "Logged car", deviceId: uniqueDevice() });
  const posted = await api("sandbox").post(
    `/vehicle/${vehicle.vehicleId}/dataSet/`,
    simulatedTrip(new Date(Date.now() - 3_600_000), { lat: 40.7128, lon: -74.006 }),
    driver.accessToken,
  );
  expect(posted.status, posted.text).toBe(200);
  return { ...driver, accountId: driver.account.id as number, vehicleId: vehicle.vehicleId as number };
}

async function signedIn(username: string) {
  const browser = new Browser();
  expect((await browser.signIn("sandbox", username, PASSWORD)).problem).toBeNull();
  return browser;
}

async function download(browser: Browser, path: string) {
  const headers: Record<string, string> = { "X-Forwarded-For": browser.address };
  if (browser.cookies.size > 0) headers.Cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const res = await fetch(baseUrl() + path, { headers, redirect: "manual" });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

function parseCsv(text: string): string[][] {
  return text
    .split("\r\n")
    .filter((line) => line !== "")
    .map((line) => line.split(","));
}

describe("access log: what counts", () => {
  it("each answer counts once per account, in each category it carried; empty answers, errors and data-set posts count nothing", async () => {
    const hourBefore = Math.floor(Date.now() / 3_600_000);
    const d = await driverWithTrip();
    const user = d.accessToken;
    const client = d.clientToken;
    const v = `/vehicle/${d.vehicleId}`;
    // Already: the account's creation (identity) and the vehicle's (vehicle data, no position yet).
    const reads: [string, string][] = [
      [`/account/`, user], // identity
      [`/vehicle/`, user], // vehicle data + location (its last waypoint)
      [`${v}/data/`, user], // location + vehicle data
      [`${v}/data/?key=GEN_SPEED`, user], // vehicle data only
      [`${v}/trip/`, user], // vehicle data + location (start and end)
      [`${v}/dataSet/`, client], // a client's answer: the account found through the vehicle
      [`/account/${d.accountId}`, client], // identity
      [`${v}/eventNotification/`, user], // empty: nothing
      [`/vehicle/999999999`, user], // 404: nothing
    ];
    for (const [path, token] of reads) await api("sandbox").get(path, token);

    const expected = { identity: 3, vehicle_data: 6, location: 4 };
    expect(await settledCounts(d.accountId, expected)).toEqual(sorted(expected));
    const hours = await testSql()<{ h: number }[]>`
      select distinct (extract(epoch from hour) / 3600)::int as h from access_counts where account_id = ${d.accountId}`;
    for (const { h } of hours) expect([hourBefore, hourBefore + 1]).toContain(h);
  });

  it("a client's list across accounts counts once for each account it carried, in that account's categories", async () => {
    const a = await driverWithTrip();
    const b = await createDriver("sandbox", creds);
    const bId = b.account.id as number;
    await addVehicle("sandbox", b.accessToken, { label: "No position", deviceId: uniqueDevice() });
    // Already counted: each account's creation and its vehicle's.
    const created = { identity: 1, vehicle_data: 1 };
    const before = { a: await settledCounts(a.accountId, created), b: await settledCounts(bId, created) };
    expect(before).toEqual({ a: sorted(created), b: sorted(created) });
    const listed = await api("sandbox").get(`/vehicle/?searchLimit=500`, a.clientToken);
    expect(listed.status, listed.text).toBe(200);
    const plus = (c: Counts, more: Counts) =>
      Object.fromEntries(
        [...new Set([...Object.keys(c), ...Object.keys(more)])].map((k) => [k, (c[k] ?? 0) + (more[k] ?? 0)]),
      );
    // a's vehicle has a position, b's has none; each account counts once however many vehicles it has.
    expect(await settledCounts(a.accountId, plus(before.a, { vehicle_data: 1, location: 1 }))).toEqual(
      sorted(plus(before.a, { vehicle_data: 1, location: 1 })),
    );
    expect(await settledCounts(bId, plus(before.b, { vehicle_data: 1 }))).toEqual(
      sorted(plus(before.b, { vehicle_data: 1 })),
    );
  });
});

describe("the driver's access log and export", () => {
  it("GET /me/access-log: the signed-in driver's hours as CSV, with the app's name and exact counts", async () => {
    const d = await driverWithTrip();
    await api("sandbox").get(`/account/`, d.accessToken);
    const expected = { identity: 2, vehicle_data: 1 };
    await settledCounts(d.accountId, expected);
    const browser = await signedIn(d.account.username);
    const csv = await download(browser, "/me/access-log");
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toMatch(/^attachment; filename="wayline-access-log-\d+\.csv"$/);
    const [header, ...rows] = parseCsv(new TextDecoder().decode(csv.bytes));
    expect(header).toEqual(["app_id", "app", "category", "hour_utc", "count", "last_access_utc"]);
    const totals: Counts = {};
    for (const row of rows) {
      expect(row[3]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:00:00\.000Z$/);
      expect(Date.parse(row[5]!)).toBeGreaterThanOrEqual(Date.parse(row[3]!));
      totals[row[2]!] = (totals[row[2]!] ?? 0) + Number(row[4]);
    }
    expect(sorted(totals)).toEqual(sorted(expected));
    // The page shows the same per app and category.
    const page = await browser.get("/data-access");
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-category="identity"');
  });

  it("GET /me/export: a ZIP whose entries parse back, with this driver's data only", async () => {
    const d = await driverWithTrip();
    const other = await driverWithTrip();
    const sub = await api("sandbox").post(
      `/vehicle/${d.vehicleId}/eventSubscription/IGNITIONSTATUS/`,
      { postUrl: "https://partner.example/hook", notificationPeriod: "STATECHANGE" },
      d.clientToken,
    );
    expect(sub.status, sub.text).toBe(200);
    const second = await api("sandbox").post(
      `/vehicle/${d.vehicleId}/dataSet/`,
      simulatedTrip(new Date(Date.now() - 1_800_000), { points: 3 }),
      d.accessToken,
    );
    expect(second.status, second.text).toBe(200);
    const stats = await testSql()<{ n: number }[]>`
      select data_points::int as n from vehicle_data_stats where vehicle_id = ${d.vehicleId}`;
    const notes = await testSql()<{ n: number }[]>`
      select count(*)::int as n from notifications where vehicle_id = ${d.vehicleId}`;
    expect(notes[0]!.n).toBeGreaterThan(0);

    const browser = await signedIn(d.account.username);
    const zip = await download(browser, "/me/export");
    expect(zip.status).toBe(200);
    expect(zip.headers.get("content-type")).toBe("application/zip");
    expect(zip.headers.get("x-export-data-points")).toBe(String(stats[0]!.n));
    expect(zip.headers.get("x-export-trips")).toBe("2");
    expect(zip.headers.get("x-export-notifications")).toBe(String(notes[0]!.n));

    const files = unzipSync(zip.bytes);
    expect(Object.keys(files).sort()).toEqual([
      "README.txt",
      "access-log.csv",
      "account.json",
      "alerts.json",
      "connected-apps.json",
      "data-points.csv",
      "notifications.json",
      "places.geojson",
      "shared-links.json",
      "trips.geojson",
      "trips.gpx",
      "vehicles.json",
    ]);
    const text = (name: string) => strFromU8(files[name]!);

    expect(JSON.parse(text("account.json"))).toMatchObject({ id: d.accountId, username: d.account.username });
    const vehicles = JSON.parse(text("vehicles.json"));
    expect(vehicles.map((v: { vehicleId: number }) => v.vehicleId)).toEqual([d.vehicleId]);
    const apps = JSON.parse(text("connected-apps.json"));
    expect(apps).toHaveLength(1);
    expect(apps[0].grant.how).toBe("created");

    const [header, ...points] = parseCsv(text("data-points.csv"));
    expect(header).toEqual(["vehicle_id", "data_set_id", "point_id", "timestamp_utc", "key", "value"]);
    expect(points).toHaveLength(stats[0]!.n);
    for (const p of points) expect(p[0]).toBe(String(d.vehicleId));
    expect(points.some((p) => p[4] === "GEN_WAYPOINT")).toBe(true);
    // In time order, as the keyset reads them.
    const times = points.map((p) => Date.parse(p[3]!));
    expect([...times].sort((x, y) => x - y)).toEqual(times);

    const geo = JSON.parse(text("trips.geojson"));
    expect(geo.type).toBe("FeatureCollection");
    expect(geo.features).toHaveLength(2);
    for (const f of geo.features) {
      expect(f.geometry.type).toBe("LineString");
      for (const [lon, lat] of f.geometry.coordinates) {
        expect(Math.abs(lon)).toBeLessThanOrEqual(180);
        expect(Math.abs(lat)).toBeLessThanOrEqual(90);
      }
    }
    // The first trip: 12 positions from 40.7128,-74.006 (GeoJSON: longitude first).
    expect(geo.features[0].geometry.coordinates[0]).toEqual([-74.006, 40.7128]);
    expect(geo.features[0].geometry.coordinates).toHaveLength(12);

    const gpx = text("trips.gpx");
    expect(gpx.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(gpx.match(/<trk>/g)).toHaveLength(2);
    expect(gpx.match(/<trkpt /g)).toHaveLength(
      geo.features.reduce(
        (n: number, f: { geometry: { coordinates: unknown[] } }) => n + f.geometry.coordinates.length,
        0,
      ),
    );
    expect(gpx).toContain('<trkpt lat="40.7128" lon="-74.006">');
    expect(gpx.trim().endsWith("</gpx>")).toBe(true);

    // No alert chosen, none made: the settings' empty shape.
    expect(JSON.parse(text("alerts.json"))).toEqual({ preferences: [], quietHours: null, alerts: [] });

    const notifications = JSON.parse(text("notifications.json"));
    expect(notifications).toHaveLength(notes[0]!.n);
    for (const n of notifications) expect(n.vehicleId).toBe(d.vehicleId);

    expect(parseCsv(text("access-log.csv"))[0]).toEqual([
      "app_id",
      "app",
      "category",
      "hour_utc",
      "count",
      "last_access_utc",
    ]);
    // Nothing of the other driver anywhere.
    for (const name of Object.keys(files)) {
      expect(text(name)).not.toContain(other.account.username);
      expect(text(name)).not.toContain(`"vehicleId": ${other.vehicleId},`);
    }
    expect(points.some((p) => p[0] === String(other.vehicleId))).toBe(false);
  });

  it("data-points.csv writes every field as csvLine does: quotes, commas, line breaks, formula-like text", async () => {
    const d = await driverWithTrip();
    // Values a device might send that CSV must quote or a spreadsheet would run, stored as they came.
    const awkward = ["=SUM(A1:A9)", "-82.99", "+1", "@cmd", "\tindented", 'say "hi"', "a,b", "two\r\nlines", "plain"];
    const [set] = await testSql()<{ id: string; at: string }[]>`
      select id::text, recorded_at::text as at from data_sets where vehicle_id = ${d.vehicleId} order by recorded_at desc limit 1`;
    for (const [i, value] of awkward.entries())
      await testSql()`insert into data_points (vehicle_id, data_set_id, position, recorded_at, key, value)
        values (${d.vehicleId}, ${set!.id}::bigint, ${100 + i}, ${set!.at}::timestamptz, 'GEN_NOTE', ${value})`;
    // Ordered by the table's id: a bare `id` in ORDER BY names the output column, id::text, which put
    // point 10000 before 9985 once the suite's ids passed ten thousand (a CI failure).
    const rows = await testSql()<{ id: string; set: string; at: string; key: string; value: string }[]>`
      select id::text, data_set_id::text as set, to_char(recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at,
             key, value from data_points where vehicle_id = ${d.vehicleId} order by recorded_at, data_points.id`;
    const expected =
      csvLine(["vehicle_id", "data_set_id", "point_id", "timestamp_utc", "key", "value"]) +
      rows.map((r) => csvLine([d.vehicleId, r.set, r.id, r.at, r.key, r.value])).join("");

    const browser = await signedIn(d.account.username);
    const zip = await download(browser, "/me/export");
    expect(zip.status).toBe(200);
    const csv = strFromU8(unzipSync(zip.bytes)["data-points.csv"]!);
    expect(csv).toBe(expected);
    expect(csv).toContain(`,GEN_NOTE,'=SUM(A1:A9)\r\n`);
    expect(csv).toContain(`,GEN_NOTE,"two\r\nlines"\r\n`);
    expect(csv).toContain(`,GEN_NOTE,"say ""hi"""\r\n`);
  });

  it("without a session both downloads answer 401 in the API's error shape; other methods 405", async () => {
    const anonymous = new Browser();
    for (const path of ["/me/access-log", "/me/export"]) {
      const res = await download(anonymous, path);
      expect(res.status).toBe(401);
      const body = JSON.parse(new TextDecoder().decode(res.bytes));
      expect(body.error).toMatchObject({ httpStatus: 401, errorCode: "UNAUTHORIZED" });
      const post = await fetch(baseUrl() + path, { method: "POST", redirect: "manual" });
      expect(post.status).toBe(405);
      expect(post.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
      expectApiError(
        { status: post.status, headers: post.headers, text: "", body: await post.json() },
        405,
        "METHOD_NOT_ALLOWED",
      );
    }
  });
});
