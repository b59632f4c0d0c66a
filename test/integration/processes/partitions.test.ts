// @module-tag embedded
import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { request } from "@/test/helpers/api";
import { startAppWithOwnDatabase, type AppWithOwnDatabase } from "@/test/helpers/app-with-own-database";
import { partnerAccount } from "@/test/helpers/partner-account";
import { runScript } from "@/test/helpers/processes";
import { newestOfEachKey, simulatedTrip } from "@/test/helpers/telemetry";

// Time partitions (docs/partitions.md) on a service of its own (its retention drops whole months, which
// no other test's data may share), with its worker on: the worker makes the months ahead; a row of a
// month not made lands in the default partition and moves into its month when that is made; retention
// drops a month whole and batches the rest, and the totals the API reports stay exact; delivery attempts
// go the same way while the console's rollups stay.

let own: AppWithOwnDatabase;
let db: postgres.Sql;
const embedded = inject("embedded");

/** The service's database: its own on PostgreSQL, or the embedded one it serves. */
function connect(): postgres.Sql {
  const url = embedded
    ? (JSON.parse(fs.readFileSync(path.join(own.app.dataDir, "embedded-db.json"), "utf8")) as { url: string }).url
    : own.app.env.DATABASE_URL!;
  return postgres(url, { max: 1, prepare: !embedded, fetch_types: false, onnotice: () => {} });
}

const DAY = 86_400_000;
/** Noon (UTC) `days` days ago: a simulated trip (12 minutes) stays inside one month. */
const noonDaysAgo = (days: number) => {
  const d = new Date(Date.now() - days * DAY);
  d.setUTCHours(12, 0, 0, 0);
  return d;
};
const monthName = (table: string, at: Date) =>
  `${table}_p${at.getUTCFullYear()}${String(at.getUTCMonth() + 1).padStart(2, "0")}`;
const lastLine = (stdout: string) => JSON.parse(stdout.trim().split("\n").pop()!);

beforeAll(async () => {
  own = await startAppWithOwnDatabase("partitions", { WORKER: "on" });
  db = connect();
}, 240_000);

afterAll(async () => {
  await db?.end();
  await own?.stop();
});

async function partitionsOf(table: string): Promise<string[]> {
  const rows = await db<
    { name: string }[]
  >`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = ${table}::regclass order by 1`;
  return rows.map((r) => r.name);
}

describe("partitions made ahead", () => {
  test(
    "the worker makes this month and the next 3 of each table: one dropped is made again when it starts",
    { timeout: 120_000 },
    async () => {
      const now = new Date();
      const months = [0, 1, 2, 3].map((m) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + m, 15)));
      for (const table of ["data_sets", "data_points", "delivery_attempts"]) {
        const made = await partitionsOf(table);
        expect(made).toContain(`${table}_default`);
        for (const m of months) expect(made).toContain(monthName(table, m));
      }
      const furthest = monthName("data_points", months[3]!);
      await db`drop table ${db(furthest)}`;
      expect(await partitionsOf("data_points")).not.toContain(furthest);

      await db.end();
      await own.app.restart();
      db = connect();
      // The worker's first run starts with the service; wait for it, without a bound on how long it takes.
      for (;;) {
        if ((await partitionsOf("data_points")).includes(furthest)) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
  );
});

describe("data points by month", () => {
  let token: string;
  let vehicleId: number;
  const api = () => `${own.app.baseUrl}/sandbox/api`;
  const total = async (pathAndQuery: string) => {
    const r = await request("GET", `${api()}/vehicle/${vehicleId}/${pathAndQuery}`, { token });
    expect(r.status, r.text).toBe(200);
    return r.body.totalRecords as number;
  };
  const pointsIn = async (at: Date) => {
    const rows = await db<{ part: string; n: number }[]>`select tableoid::regclass::text as part, count(*)::int as n
      from data_points where vehicle_id = ${vehicleId} and recorded_at between ${at} and ${new Date(at.getTime() + 3_600_000)}
      group by 1`;
    return rows;
  };
  const old = noonDaysAgo(100);

  beforeAll(async () => {
    ({ token } = await partnerAccount(own));
    const vehicle = await request("POST", `${api()}/vehicle/`, { token, json: { label: "By month" } });
    expect(vehicle.status, vehicle.text).toBe(200);
    vehicleId = vehicle.body.vehicle.vehicleId as number;
  });

  test("a trip of a month not made lands in the default partition, reads back, and moves into its month when it is made", async () => {
    const posted = await request("POST", `${api()}/vehicle/${vehicleId}/dataSet/`, { token, json: simulatedTrip(old) });
    expect(posted.status, posted.text).toBe(200);
    expect(await pointsIn(old)).toEqual([{ part: "data_points_default", n: 34 }]);
    expect(await total("data/")).toBe(34);
    const before = await request("GET", `${api()}/vehicle/${vehicleId}/data/?limit=50`, { token });

    for (const table of ["data_sets", "data_points"])
      await db`select wayline_create_partition(${table}, 'recorded_at', ${old})`;
    expect(await pointsIn(old)).toEqual([{ part: monthName("data_points", old), n: 34 }]);
    const [sets] = await db<
      { part: string }[]
    >`select distinct tableoid::regclass::text as part from data_sets where vehicle_id = ${vehicleId}`;
    expect(sets?.part).toBe(monthName("data_sets", old));
    const after = await request("GET", `${api()}/vehicle/${vehicleId}/data/?limit=50`, { token });
    expect(after.body).toEqual(before.body);
  });

  test(
    "retention drops the month older than the cutoff whole, deletes the older points of the default partition in batches, and every total stays exact",
    { timeout: 120_000 },
    async () => {
      for (const daysAgo of [45, 1]) {
        const posted = await request("POST", `${api()}/vehicle/${vehicleId}/dataSet/`, {
          token,
          json: simulatedTrip(noonDaysAgo(daysAgo)),
        });
        expect(posted.status, posted.text).toBe(200);
      }
      expect(await total("data/")).toBe(3 * 34);
      expect(await total("data/?key=gen_speed")).toBe(30);
      expect(await pointsIn(noonDaysAgo(45))).toEqual([{ part: "data_points_default", n: 34 }]);
      // A second vehicle whose only trip is in the month that goes (its partition made above): each key's
      // newest point is in that month.
      const oldOnly = await request("POST", `${api()}/vehicle/`, { token, json: { label: "Old month only" } });
      expect(oldOnly.status, oldOnly.text).toBe(200);
      const oldOnlyId = oldOnly.body.vehicle.vehicleId as number;
      const posted = await request("POST", `${api()}/vehicle/${oldOnlyId}/dataSet/`, {
        token,
        json: simulatedTrip(new Date(old.getTime() + 3_600_000)),
      });
      expect(posted.status, posted.text).toBe(200);
      const newestOf = (id: number) => newestOfEachKey(api(), id, token);
      const newestBefore = await newestOf(vehicleId);
      expect(newestBefore).toHaveLength(5);
      expect(await newestOf(oldOnlyId)).toHaveLength(5);

      // A month an interrupted run detached and did not drop: this run drops it too.
      await db`create table data_points_p201901_detached (like data_points)`;
      // A batch of 16 rows, so that the 45-day-old trip's 34 points take several statements.
      const { stdout } = await runScript("retention.ts", ["--days", "40", "--batch", "16"], own.app.env);
      expect(lastLine(stdout)).toEqual({ days: 40, vehicles: 2, deleted: 3 * 34, partitions: 1, partitionsMade: 0 });
      // Each key's newest point is one the vehicle still has: yesterday's for the first, none for the second
      // (its month went whole).
      expect(await newestOf(vehicleId)).toEqual(newestBefore);
      expect(await newestOf(oldOnlyId)).toEqual([]);
      expect(await partitionsOf("data_points")).not.toContain(monthName("data_points", old));
      // The month was detached, then dropped (db/partitions.ts): no table of it is left, attached or not.
      const left = await db<
        { name: string }[]
      >`select relname as name from pg_class where relname like 'data_points_p%' and relkind in ('r', 'p')`;
      expect(left.map((r) => r.name)).not.toContain(monthName("data_points", old));
      expect(left.map((r) => r.name).filter((name) => name.endsWith("_detached"))).toEqual([]);
      // Data sets stay (DATA_POINT_RETENTION_DAYS is about points), and so does their month.
      expect(await partitionsOf("data_sets")).toContain(monthName("data_sets", old));

      expect(await total("data/")).toBe(34);
      expect(await total("data/?key=gen_speed")).toBe(10);
      expect(await total("dataSet/")).toBe(36);
      expect(await total("trip/")).toBe(3);
      const [stats] = await db<
        { points: string }[]
      >`select data_points::text as points from vehicle_data_stats where vehicle_id = ${vehicleId}`;
      const [counted] = await db<
        { n: string }[]
      >`select count(*)::text as n from data_points where vehicle_id = ${vehicleId}`;
      expect(stats?.points).toBe(counted?.n);
      // The key counters by month (what a month's drop takes off the totals) are the points by month, both ways.
      const byMonth = db`select key, date_trunc('month', recorded_at at time zone 'UTC')::date as month, count(*)::bigint as n
        from data_points where vehicle_id = ${vehicleId} group by 1, 2`;
      const kept = db`select key, month, data_points as n from vehicle_key_stats where vehicle_id = ${vehicleId} and data_points > 0`;
      const [differ] = await db<{ missing: number; extra: number }[]>`select
        (select count(*) from (${byMonth} except ${kept}) d)::int as missing, (select count(*) from (${kept} except ${byMonth}) d)::int as extra`;
      expect(differ).toEqual({ missing: 0, extra: 0 });

      expect(lastLine((await runScript("retention.ts", ["--days", "40"], own.app.env)).stdout)).toEqual({
        days: 40,
        vehicles: 0,
        deleted: 0,
        partitions: 0,
        partitionsMade: 0,
      });
    },
  );
});

describe("delivery attempts by month", () => {
  test(
    "retention drops the month of attempts older than the cutoff and batches the rest; the rollups stay",
    { timeout: 120_000 },
    async () => {
      // The rows as the delivery worker leaves them, written here for their times (a delivered
      // notification, so the worker has nothing to send): an attempt now, one 45 days ago (the default
      // partition's) and one 100 days ago (in its month).
      const [delivery] = await db<{ id: string; notification_id: string; delivery_id: number }[]>`
      with app as (insert into partner_apps (name) values ('Attempts by month') returning id),
      sub as (insert into subscriptions (type, scope, notification_period, environment, app_id, client_id)
              select 'IGNITION_ON', 'APP', 'NONE', 'sandbox', id, 'client' from app returning id, app_id),
      d as (insert into subscription_deliveries (position, type, subscription_id) select 0, 'HTTP_POST', id from sub returning id, subscription_id),
      n as (insert into notifications (body, environment, subscription_id, app_id, type, event_at)
            select '{}', 'sandbox', sub.id, sub.app_id, 'IGNITION_ON', now() from sub returning id)
      insert into notification_deliveries (notification_id, delivery_id, status) select n.id, d.id, 'DELIVERED' from n, d
      returning id::text, notification_id::text, delivery_id`;
      const old = noonDaysAgo(100);
      await db`select wayline_create_partition('delivery_attempts', 'attempted_at', ${old})`;
      for (const at of [new Date(), noonDaysAgo(45), old])
        await db`insert into delivery_attempts (notification_delivery_id, notification_id, delivery_id, attempted_at, target, outcome, http_status, latency_ms)
        values (${delivery!.id}, ${delivery!.notification_id}, ${delivery!.delivery_id}, ${at}, 'https://partner.example/hook', 'DELIVERED', 200, 12)`;
      const rollups = () =>
        db`select * from delivery_attempt_rollups order by delivery_id, bucket_seconds, bucket_start`;
      const rollupsBefore = await rollups();

      const { stdout } = await runScript("retention.ts", ["--attempt-days", "40"], own.app.env);
      expect(lastLine(stdout)).toEqual({ attempts: { days: 40, deleted: 2, partitions: 1 }, partitionsMade: 0 });
      expect(await partitionsOf("delivery_attempts")).not.toContain(monthName("delivery_attempts", old));
      const left = await db<
        { n: number }[]
      >`select count(*)::int as n from delivery_attempts where delivery_id = ${delivery!.delivery_id}`;
      expect(left[0]?.n).toBe(1);
      expect(await rollups()).toEqual(rollupsBefore);
    },
  );
});
