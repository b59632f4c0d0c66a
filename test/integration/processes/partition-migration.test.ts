// @module-tag embedded
import { sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import type { FreshDatabase } from "@/test/helpers/fresh-database";
import { request } from "@/test/helpers/api";
import {
  migrations,
  migrationsTo,
  openMigrationTarget,
  releaseMigrationTarget,
  type MigrationTarget,
} from "@/test/helpers/migration-target";
import { startApp, runScript } from "@/test/helpers/processes";

// Migration 0028 (docs/partitions.md#the-migrations), and 0029–0031 after it: a database made by the
// migrations up to 0027 and filled through that schema (data sets and points over three months and one from 2019, a trip, the
// counters, delivery attempts) is migrated on, and every row, every counter and the sequences come
// through: on the suite's PostgreSQL (a database of its own; there a service started on it answers the same
// totals) and on an embedded PGlite.

// The old schema's rows, as ingest and the delivery worker left them: two vehicles with a trip each,
// a data set every 7 hours for about 83 days back and one from 2019 (outside any month made: the
// default partition's), 4 points a set, the counters, and an attempt every 5 hours for 125 days.
const fill: SQL[] = [
  sql`insert into accounts (first_name, last_name, username, password_hash, environment)
      values ('Old', 'Schema', 'partition-migration', 'x', 'sandbox')`,
  sql`insert into vehicles (environment, account_id) select 'sandbox', id from accounts cross join generate_series(1, 2)`,
  sql`insert into trips (environment, vehicle_id, start_time, last_data_at)
      select 'sandbox', id, now() - interval '90 days', now() from vehicles`,
  sql`insert into data_sets (environment, vehicle_id, trip_id, recorded_at, ignition_status)
      select 'sandbox', v.id, t.id, date_trunc('second', now()) - make_interval(hours => g), 'RUNNING'
        from vehicles v join trips t on t.vehicle_id = v.id cross join generate_series(1, 2000, 7) g`,
  sql`insert into data_sets (environment, vehicle_id, recorded_at, ignition_status)
      select 'sandbox', id, '2019-01-01T00:00:00Z', 'OFF' from vehicles`,
  sql`insert into data_points (vehicle_id, data_set_id, position, recorded_at, key, value)
      select s.vehicle_id, s.id, k, s.recorded_at, 'KEY_' || k, (s.id * 10 + k)::text
        from data_sets s cross join generate_series(0, 3) k`,
  sql`insert into vehicle_data_stats (vehicle_id, data_sets, data_points)
      select vehicle_id, count(distinct data_set_id), count(*) from data_points group by vehicle_id`,
  sql`insert into vehicle_key_stats (vehicle_id, key, data_points) select vehicle_id, key, count(*) from data_points group by 1, 2`,
  sql`insert into partner_apps (name) values ('Partition migration')`,
  sql`insert into subscriptions (type, scope, notification_period, environment, app_id, client_id, account_id)
      select 'IGNITION_ON', 'ACCOUNT', 'NONE', 'sandbox', a.id, 'client', c.id from partner_apps a, accounts c`,
  sql`insert into subscription_deliveries (position, type, subscription_id) select 0, 'HTTP_POST', id from subscriptions`,
  sql`insert into notifications (body, environment, subscription_id, app_id, type, event_at)
      select '{}', 'sandbox', s.id, s.app_id, 'IGNITION_ON', now() from subscriptions s`,
  sql`insert into notification_deliveries (notification_id, delivery_id)
      select n.id, d.id from notifications n, subscription_deliveries d`,
  sql`insert into delivery_attempts (notification_delivery_id, notification_id, delivery_id, attempted_at, target, outcome,
                                 http_status, latency_ms, request_headers)
      select nd.id, nd.notification_id, nd.delivery_id, now() - make_interval(hours => g), 'https://partner.example/hook',
             case when g % 2 = 0 then 'DELIVERED' else 'RETRY' end, case when g % 2 = 0 then 200 else 500 end, g, '{"a": "b"}'
        from notification_deliveries nd cross join generate_series(1, 3000, 5) g`,
];

// What must come through, each as a fingerprint of every row (an md5 of the rows in id order).
const tables = {
  // The columns the old schema had (0029 adds the points' span, null for these rows).
  data_sets: sql`select count(*)::int as n, md5(string_agg((t.id, t.environment, t.vehicle_id,
    t.trip_id, t.recorded_at, t.ignition_status, t.device_id, t.vin, t.received_at)::text, '|' order by
    t.id)) as digest from data_sets t`,
  data_points: sql`select count(*)::int as n, md5(string_agg(t::text, '|' order by t.id)) as digest from data_points t`,
  delivery_attempts: sql`select count(*)::int as n, md5(string_agg(t::text, '|' order by t.id)) as digest from delivery_attempts t`,
  vehicle_data_stats: sql`select count(*)::int as n, md5(string_agg(t::text, '|' order by t.vehicle_id)) as digest from vehicle_data_stats t`,
  // Each key's total (0030 counts it by month: the months' sum).
  vehicle_key_stats: sql`select count(*)::int as n, md5(string_agg(t::text, '|' order by t.vehicle_id, t.key)) as digest
    from (select vehicle_id, key, sum(data_points)::bigint as data_points from vehicle_key_stats group by 1, 2) t`,
  delivery_attempt_rollups: sql`select count(*)::int as n, md5(string_agg(t::text, '|' order by
    t.delivery_id, t.bucket_seconds, t.bucket_start)) as digest from delivery_attempt_rollups t`,
};

describe("migrations 0028–0031 on a database filled through the old schema", () => {
  let target: MigrationTarget;
  let fresh: FreshDatabase | null;
  let folder: string;
  const before: Record<string, unknown> = {};

  beforeAll(async () => {
    ({ target, fresh } = await openMigrationTarget("part_migration"));
    folder = migrationsTo(27);
    await target.migrate(folder);
    for (const statement of fill) await target.run(statement);
    for (const [name, query] of Object.entries(tables)) before[name] = (await target.run(query))[0];
    await target.migrate(migrations);
  }, 240_000);

  afterAll(() => releaseMigrationTarget(target, fresh, folder));

  test("every row and every counter comes through unchanged", async () => {
    expect((before.data_points as { n: number }).n).toBe(2 * (286 + 1) * 4);
    expect((before.delivery_attempts as { n: number }).n).toBe(600);
    for (const [name, query] of Object.entries(tables))
      expect((await target.run(query))[0], name).toEqual(before[name]);
  });

  test.skipIf(inject("embedded"))(
    "the API's totals after the migration are the counters' before it (PostgreSQL: a service on the migrated database)",
    { timeout: 240_000 },
    async () => {
      const service = await startApp({ name: "partition-migration", databaseUrl: fresh!.url });
      try {
        // A partner app the filled account grants, and its client-credentials token.
        const app = JSON.parse(
          (await runScript("app-create.ts", ["--name", "Partition migration reader", "--json"], service.env)).stdout,
        ) as { sandbox: { clientId: string; clientSecret: string } };
        await target.run(sql`insert into account_grants (account_id, app_id, source)
          select a.id, p.id, 'created' from accounts a, partner_apps p where p.name = 'Partition migration reader'`);
        const basic = Buffer.from(`${app.sandbox.clientId}:${app.sandbox.clientSecret}`).toString("base64");
        const token = await request("POST", `${service.baseUrl}/sandbox/oauth/token`, {
          body: "grant_type=client_credentials",
          headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: `Basic ${basic}` },
        });
        expect(token.status, token.text).toBe(200);
        const total = async (path: string) => {
          const r = await request("GET", `${service.baseUrl}/sandbox/api/${path}`, { token: token.body.access_token });
          expect(r.status, r.text).toBe(200);
          return r.body.totalRecords as number;
        };
        const counters = (before.vehicle_data_stats as { n: number }).n;
        expect(counters).toBe(2);
        for (const vehicle of await target.run(sql`select id from vehicles order by id`)) {
          const id = vehicle.id as number;
          expect(await total(`vehicle/${id}/dataSet/`)).toBe(287);
          expect(await total(`vehicle/${id}/data/`)).toBe(287 * 4);
          expect(await total(`vehicle/${id}/data/?key=KEY_2`)).toBe(287);
          expect(await total(`vehicle/${id}/trip/`)).toBe(1);
          // Each key's newest point: those of the newest data set.
          const [newestSet] = await target.run(
            sql`select id::text from data_sets where vehicle_id = ${id} order by recorded_at desc limit 1`,
          );
          const latest = await request(
            "GET",
            `${service.baseUrl}/sandbox/api/vehicle/${id}/data/?mostRecentOnly=true`,
            {
              token: token.body.access_token,
            },
          );
          expect(latest.status, latest.text).toBe(200);
          expect(latest.body.data.map((p: { key: string; dataSetId: number }) => [p.key, String(p.dataSetId)])).toEqual(
            [0, 1, 2, 3].map((k) => [`KEY_${k}`, newestSet!.id]),
          );
        }
      } finally {
        await service.stop();
      }
    },
  );

  test("0030 counts each vehicle's keys by the month of their points", async () => {
    const byMonth = sql`select vehicle_id, key, date_trunc('month', recorded_at at time zone 'UTC')::date as month, count(*)::bigint as n
      from data_points group by 1, 2, 3`;
    const kept = sql`select vehicle_id, key, month, data_points as n from vehicle_key_stats`;
    const [row] = await target.run(sql`select (select count(*) from (${byMonth} except ${kept}) d)::int as missing,
      (select count(*) from (${kept} except ${byMonth}) d)::int as extra, (select count(*) from vehicle_key_stats)::int as rows`);
    // 2 vehicles × 4 keys × (the 3–4 months of the last 83 days and 2019's): at least 32 rows.
    expect(row).toMatchObject({ missing: 0, extra: 0 });
    expect(row!.rows).toBeGreaterThanOrEqual(32);
  });

  test("0031 copies each vehicle's newest point of each key, as the newest by time then id", async () => {
    const newest = sql`(select distinct on (vehicle_id, key) vehicle_id, key, id as point_id, data_set_id, position, recorded_at, value
      from data_points order by vehicle_id, key, recorded_at desc, id desc)`;
    const kept = sql`select vehicle_id, key, point_id, data_set_id, position, recorded_at, value from latest_data_points`;
    const [row] = await target.run(sql`select (select count(*) from (${newest} except ${kept}) d)::int as missing,
      (select count(*) from (${kept} except ${newest}) d)::int as extra, (select count(*) from latest_data_points)::int as rows`);
    // 2 vehicles × 4 keys, each the point of the newest data set (an hour ago).
    expect(row).toEqual({ missing: 0, extra: 0, rows: 8 });
  });

  test("the tables are partitioned by month, the months of the rows made, the 2019 rows in the default partition", async () => {
    const partitioned = await target.run(
      sql`select c.relname as name from pg_partitioned_table p join pg_class c on c.oid = p.partrelid order by 1`,
    );
    expect(partitioned.map((r) => r.name)).toEqual(["data_points", "data_sets", "delivery_attempts"]);
    const where = await target.run(sql`select tableoid::regclass::text as part, count(*)::int as n from data_sets
      group by 1 order by 1`);
    expect(where.find((r) => r.part === "data_sets_default")?.n).toBe(2);
    // About 83 days back: three or four months, each with rows, besides the default.
    const months = where.filter((r) => r.part !== "data_sets_default");
    expect(months.length).toBeGreaterThanOrEqual(3);
    for (const m of months) expect(m.part).toMatch(/^data_sets_p\d{6}$/);
    // This month and the 3 after it, made whether rows are there or not.
    const made = await target.run(sql`select count(*)::int as n from pg_inherits
      where inhparent = 'data_points'::regclass and inhrelid::regclass::text in (
        select 'data_points_p' || to_char((date_trunc('month', now() at time zone 'UTC') + make_interval(months => m)), 'YYYYMM')
          from generate_series(0, 3) m)`);
    expect(made[0]!.n).toBe(4);
  });

  test("ids go on from the old sequences, and a deleted vehicle's data sets take their points with them", async () => {
    const [max] = await target.run(sql`select max(id)::text as id from data_points`);
    const [vehicle] = await target.run(sql`select min(id) as id from vehicles`);
    const [set] = await target.run(sql`select id::text from data_sets where vehicle_id = ${vehicle!.id} limit 1`);
    const [inserted] =
      await target.run(sql`insert into data_points (vehicle_id, data_set_id, position, recorded_at, key, value)
      values (${vehicle!.id}, ${set!.id}, 9, now(), 'KEY_NEW', 'x') returning id::text`);
    expect(BigInt(inserted!.id as string)).toBe(BigInt(max!.id as string) + 1n);

    await target.run(sql`delete from vehicles where id = ${vehicle!.id}`);
    const [left] = await target.run(sql`select count(*)::int as n from data_points where vehicle_id = ${vehicle!.id}`);
    expect(left!.n).toBe(0);
    const [other] = await target.run(sql`select count(*)::int as n from data_points`);
    expect(other!.n).toBe((286 + 1) * 4);
  });
});
