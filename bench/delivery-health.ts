import os from "node:os";
import postgres from "postgres";
import { benchDatabase, loadAverage } from "./lib/setup";

// `npm run bench:delivery-health`: the console's delivery health queries
// (server/console/health-queries.ts) on a delivery with a million attempts, on PostgreSQL (a
// fresh database made here and dropped at the end, or DATABASE_URL).
//
// The fixture, written with INSERT … SELECT generate_series: one app, one subscription, two
// deliveries. Delivery A (measured) has ATTEMPTS attempts (default 1,000,000) spread evenly over
// the last SPREAD_DAYS days (default 7: every attempt falls in the 7-day window, the worst case),
// 97 % DELIVERED (200), 2 % RETRY with 500, 1 % RETRY with no answer, latencies 20–2,000 ms;
// its notifications all DELIVERED but PENDING_ROWS (1,000) still waiting, half of them retrying.
// Delivery B has NOISE attempts (default 500,000) in the same table, as another receiver would.
//
// Each query is timed RUNS times (after one untimed run) without the health indexes (dropped), then
// with them (created and ANALYZEd), in the same run. Target: each under 100 ms with the indexes.

const ATTEMPTS = Number(process.env.BENCH_ATTEMPTS ?? 1_000_000);
const NOISE = Number(process.env.BENCH_NOISE ?? 500_000);
const SPREAD_DAYS = Number(process.env.BENCH_SPREAD_DAYS ?? 7);
const PENDING_ROWS = 1_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 7);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const database = benchDatabase("wl_bench_health");
  console.log(`load average at start: ${loadAverage()} (${os.cpus().length} cores)`);
  // Server modules read DATABASE_URL through server/env.ts, when first used: set it before importing them.
  process.env.DATABASE_URL = database.url;
  const { prepareDatabase } = await import("../scripts/lib/database");
  const { db } = await import("../db/client");
  const { attemptSeries, attemptTotals, backlogOf, failuresByStatus } = await import("../server/console/health-queries");
  const { healthOf, HEALTH_WINDOWS } = await import("../server/console/health");
  const prepared = await prepareDatabase();
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  try {
    // --- fixture ---------------------------------------------------------------------------
    let t0 = performance.now();
    const [app] = await sql<{ id: number }[]>`insert into partner_apps (name) values ('Health bench') returning id`;
    const [sub] = await sql<{ id: number }[]>`
      insert into subscriptions (environment, app_id, client_id, scope, type, notification_period)
      values ('sandbox', ${app!.id}, 'bench', 'SYSTEM', 'WAYPOINT', 'ALWAYS') returning id`;
    const deliveries = await sql<{ id: number }[]>`
      insert into subscription_deliveries (subscription_id, position, type, post_url)
      values (${sub!.id}, 0, 'HTTP_POST', 'https://a.example/hook'), (${sub!.id}, 1, 'HTTP_POST', 'https://b.example/hook') returning id`;
    const [a, b] = deliveries.map((d) => d.id) as [number, number];
    const spreadSeconds = SPREAD_DAYS * 86_400;
    for (const [delivery, count] of [
      [a, ATTEMPTS],
      [b, NOISE],
    ] as const) {
      // One notification_deliveries row per attempt (its notification is not needed here).
      await sql`
        insert into notification_deliveries (notification_id, delivery_id, status, created_at)
        select g, ${delivery}, 'DELIVERED', now() - make_interval(secs => ${spreadSeconds}::float8 * g / ${count})
        from generate_series(1, ${count}) g`;
      await sql`
        insert into delivery_attempts (notification_delivery_id, notification_id, delivery_id, attempted_at, target, outcome, http_status, latency_ms)
        select nd.id, nd.notification_id, nd.delivery_id, nd.created_at,
               'https://a.example/hook',
               case when h < 97 then 'DELIVERED' else 'RETRY' end,
               case when h < 97 then 200 when h < 99 then 500 else null end,
               20 + (hashint4(nd.notification_id::int + 7) & 2147483647) % 1981
        from (select *, (hashint4(notification_id::int) & 2147483647) % 100 as h from notification_deliveries where delivery_id = ${delivery}) nd`;
    }
    const pending = await sql<{ id: number }[]>`
      insert into notification_deliveries (notification_id, delivery_id, status, created_at)
      select ${ATTEMPTS} + g, ${a}, 'PENDING', now() - make_interval(secs => g) from generate_series(1, ${PENDING_ROWS}) g returning id`;
    // Their queue entries exist (the enqueue trigger); half of them are retrying.
    await sql`
      update delivery_jobs set attempts = 1, failing_since = now() - interval '1 hour'
      where notification_delivery_id in ${sql(pending.slice(0, PENDING_ROWS / 2).map((p) => p.id))}`;
    await sql`vacuum analyze notification_deliveries`;
    await sql`vacuum analyze delivery_attempts`;
    const [{ size } = { size: "?" }] = await sql<{ size: string }[]>`select pg_size_pretty(pg_total_relation_size('delivery_attempts')) as size`;
    console.log(`fixture: ${ATTEMPTS.toLocaleString("en-US")} attempts for delivery ${a} over ${SPREAD_DAYS} d, ${NOISE.toLocaleString("en-US")} for delivery ${b}, ${PENDING_ROWS} pending; delivery_attempts ${size}; ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    // --- the queries, as the page runs them -------------------------------------------------
    const now = new Date();
    const ago = (s: number) => new Date(now.getTime() - s * 1000);
    const ids = [a];
    const queries: [string, () => Promise<unknown>][] = [
      ["totals, 1 h + 24 h + 7 d (one scan)", () => attemptTotals(db(), { deliveryIds: ids, since: [ago(3600), ago(86_400), ago(604_800)] })],
      ["series, 1 h (5 min buckets)", () => attemptSeries(db(), { deliveryIds: ids, since: ago(3600), strideSeconds: HEALTH_WINDOWS["1h"].strideSeconds })],
      ["series, 24 h (1 h buckets)", () => attemptSeries(db(), { deliveryIds: ids, since: ago(86_400), strideSeconds: HEALTH_WINDOWS["24h"].strideSeconds })],
      ["series, 7 d (6 h buckets)", () => attemptSeries(db(), { deliveryIds: ids, since: ago(604_800), strideSeconds: HEALTH_WINDOWS["7d"].strideSeconds })],
      ["failures by status, 24 h", () => failuresByStatus(db(), { deliveryIds: ids, since: ago(86_400) })],
      ["failures by status, 7 d", () => failuresByStatus(db(), { deliveryIds: ids, since: ago(604_800) })],
      ["backlog", () => backlogOf(db(), { deliveryIds: ids })],
      ["whole delivery, window 24 h (4 queries, parallel)", () => healthOf(ids, "24h", now)],
      ["whole delivery, window 7 d (4 queries, parallel)", () => healthOf(ids, "7d", now)],
    ];
    const time = async (label: string) => {
      console.log(`\n${label}: median / max of ${RUNS} runs, ms`);
      for (const [name, run] of queries) {
        await run();
        const ms: number[] = [];
        for (let i = 0; i < RUNS; i++) {
          t0 = performance.now();
          await run();
          ms.push(performance.now() - t0);
        }
        console.log(`  ${name.padEnd(52)} ${median(ms).toFixed(1).padStart(8)} ${Math.max(...ms).toFixed(1).padStart(8)}`);
      }
    };

    await sql`drop index delivery_attempts_health_idx`;
    await sql`drop index notification_deliveries_pending_by_delivery_idx`;
    await time("without the health indexes");

    t0 = performance.now();
    await sql`create index delivery_attempts_health_idx on delivery_attempts (delivery_id, attempted_at, outcome, http_status, latency_ms)`;
    await sql`create index notification_deliveries_pending_by_delivery_idx on notification_deliveries (delivery_id, created_at) where status = 'PENDING'`;
    await sql`vacuum analyze delivery_attempts`;
    await sql`vacuum analyze notification_deliveries`;
    console.log(`\nindexes built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    await time("with the health indexes (0018_delivery_health.sql)");

    const plan = await sql<{ "QUERY PLAN": string }[]>`
      explain (analyze, buffers) select count(*), percentile_disc(0.95) within group (order by latency_ms)
      from delivery_attempts where delivery_id = ${a} and attempted_at >= ${ago(604_800)} and outcome <> 'REDIRECTED'`;
    console.log(`\nplan of the 7-day p95:\n${plan.map((r) => `  ${r["QUERY PLAN"]}`).join("\n")}`);
    console.log(`\nload average at end: ${loadAverage()}`);
  } finally {
    await sql.end();
    await prepared.stop();
    database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
