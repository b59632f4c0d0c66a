import path from "node:path";
import postgres from "postgres";
import { benchDatabase } from "./lib/setup";
import { reportLoad } from "./lib/load";
import { resultRecorder } from "./lib/results";
import { grouped } from "./lib/format";

// `npm run bench:delivery-health`: the console's delivery health reads (server/surfaces/console/health.ts,
// health-queries.ts) on a delivery with a million attempts, on PostgreSQL (a fresh database made
// here and dropped at the end, or DATABASE_URL).
//
// The fixture, written with INSERT … SELECT generate_series: one app, one subscription, two
// deliveries. Delivery A (measured) has ATTEMPTS attempts (default 1,000,000) spread evenly over
// the last SPREAD_DAYS days (default 7: every attempt falls in the 7-day window, the worst case),
// 97 % DELIVERED (200), 2 % RETRY with 500, 1 % RETRY with no answer, latencies 20–2,000 ms;
// its notifications all DELIVERED but PENDING_ROWS (1,000) still waiting, half of them retrying.
// Delivery B has NOISE attempts (default 500,000) in the same table, as another receiver would.
// The rollup (delivery_attempt_rollups) is then filled by the migration's own backfill statement
// (timed: what the backfill migration costs on a table this size).
//
// Each read is timed RUNS times (after one untimed run): first the exact figures computed from
// delivery_attempts alone (what the page read before the rollup, through delivery_attempts_health_idx),
// then the rollup's reads as the page runs them, for one delivery and for the app (both deliveries);
// the two are compared (counts equal, percentiles within PERCENTILE_ERROR). Target: each read under 100 ms.

const ATTEMPTS = Number(process.env.BENCH_ATTEMPTS ?? 1_000_000);
const NOISE = Number(process.env.BENCH_NOISE ?? 500_000);
const SPREAD_DAYS = Number(process.env.BENCH_SPREAD_DAYS ?? 7);
const PENDING_ROWS = 1_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
/** Each read from the rollup under this, in ms. */
const TARGET_MS = 100;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** "1.5 million", or the count itself below a million. */
const millions = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000} million` : grouped(n));
type Timed = { median: number; max: number };

async function main() {
  reportLoad("bench:delivery-health");
  const results = resultRecorder("bench:delivery-health");
  const database = benchDatabase("wl_bench_health");
  // Server modules read DATABASE_URL through server/platform/env.ts, when first used: set it before importing them.
  process.env.DATABASE_URL = database.url;
  const { prepareDatabase } = await import("../scripts/lib/database");
  const { db } = await import("../db/client");
  const { backlogOf, seriesFigures, windowFigures } = await import("../server/surfaces/console/health-queries");
  const { healthOf, HEALTH_WINDOWS } = await import("../server/surfaces/console/health");
  const { percentileOf, PERCENTILE_ERROR } = await import("../common/delivery/latency-histogram");
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
    // Half of them are retrying.
    await sql`
      update notification_deliveries set attempts = 1, failing_since = now() - interval '1 hour'
      where id in ${sql(pending.slice(0, PENDING_ROWS / 2).map((p) => p.id))}`;
    await sql`vacuum analyze notification_deliveries`;
    await sql`vacuum analyze delivery_attempts`;
    const sizeOf = async (table: string) =>
      (await sql<{ size: string }[]>`select pg_size_pretty(pg_total_relation_size(${table}::regclass)) as size`)[0]!
        .size;
    console.log(
      `fixture: ${ATTEMPTS.toLocaleString("en-US")} attempts for delivery ${a} over ${SPREAD_DAYS} d, ` +
        `${NOISE.toLocaleString("en-US")} for delivery ${b}, ${PENDING_ROWS} pending; delivery_attempts ` +
        `${await sizeOf("delivery_attempts")}; ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    // The rollup, filled as the backfill migration fills it on an existing database.
    t0 = performance.now();
    await sql`truncate delivery_attempt_rollups`;
    await sql.file(path.join(process.cwd(), "db/migrations/0021_delivery_attempt_rollups_backfill.sql"));
    await sql`vacuum analyze delivery_attempt_rollups`;
    const [{ rows } = { rows: 0 }] = await sql<
      { rows: number }[]
    >`select count(*)::int as rows from delivery_attempt_rollups`;
    const backfillSeconds = (performance.now() - t0) / 1000;
    const rollupSize = await sizeOf("delivery_attempt_rollups");
    console.log(
      `rollup backfilled in ${backfillSeconds.toFixed(1)} s: ${rows.toLocaleString("en-US")} rows, ${rollupSize}`,
    );

    // --- the reads ----------------------------------------------------------------------------
    const now = new Date();
    const ago = (s: number) => new Date(now.getTime() - s * 1000);
    const week = ago(604_800);
    type Exact = {
      attempts: number;
      delivered: number;
      p50: number | null;
      p95: number | null;
      failures: Record<string, number>;
    };
    // The exact figures of one window, from delivery_attempts alone (the page's reads before the rollup).
    const exact = async (ids: number[], since: Date): Promise<Exact> => {
      const [totals] = await sql<{ attempts: number; delivered: number; p: [number, number] | null }[]>`
        select count(*)::int as attempts, (count(*) filter (where outcome = 'DELIVERED'))::int as delivered,
               percentile_disc(array[0.5, 0.95]) within group (order by latency_ms) as p
        from delivery_attempts where delivery_id in ${sql(ids)} and attempted_at >= ${since.toISOString()}::timestamptz and outcome <> 'REDIRECTED'`;
      const failures = await sql<{ status: string; n: number }[]>`
        select coalesce(http_status::text, 'none') as status, count(*)::int as n
        from delivery_attempts where delivery_id in ${sql(ids)} and attempted_at >=
          ${since.toISOString()}::timestamptz and outcome not in ('REDIRECTED', 'DELIVERED') group by 1`;
      return {
        attempts: totals!.attempts,
        delivered: totals!.delivered,
        p50: totals!.p?.[0] ?? null,
        p95: totals!.p?.[1] ?? null,
        failures: Object.fromEntries(failures.map((f) => [f.status, f.n])),
      };
    };
    const exactSeries = (ids: number[], since: Date, stride: number) => sql`
        select date_bin(${`${stride} seconds`}::interval, attempted_at, ${since.toISOString()}::timestamptz)
          as bucket, count(*), percentile_disc(array[0.5, 0.95]) within group (order by latency_ms)
        from delivery_attempts where delivery_id in ${sql(ids)} and attempted_at >= ${since.toISOString()}::timestamptz and outcome <> 'REDIRECTED' group by 1`;
    const fromRollup = async (ids: number[], since: Date): Promise<Exact> => {
      const f = await windowFigures(db(), { deliveryIds: ids, since });
      return {
        attempts: f.attempts,
        delivered: f.delivered,
        p50: percentileOf(f.latency, 0.5),
        p95: percentileOf(f.latency, 0.95),
        failures: Object.fromEntries(f.failures),
      };
    };

    /** Times each query, prints its median and max, and returns them by the query's name. */
    const time = async (label: string, queries: [string, () => Promise<unknown>][]) => {
      console.log(`\n${label}: median / max of ${RUNS} runs, ms`);
      const timed = new Map<string, Timed>();
      for (const [name, run] of queries) {
        await run();
        const ms: number[] = [];
        for (let i = 0; i < RUNS; i++) {
          t0 = performance.now();
          await run();
          ms.push(performance.now() - t0);
        }
        timed.set(name, { median: median(ms), max: Math.max(...ms) });
        console.log(
          `  ${name.padEnd(56)} ${median(ms).toFixed(1).padStart(8)} ${Math.max(...ms)
            .toFixed(1)
            .padStart(8)}`,
        );
      }
      return (name: string) => {
        const t = timed.get(name);
        if (!t) throw new Error(`no timing of ${name}`);
        return t;
      };
    };
    const one = [a];
    const both = [a, b];
    const exactTimes = await time("exact, from delivery_attempts (before the rollup)", [
      ["window 1 h: counts, p50/p95, failures", () => exact(one, ago(3600))],
      ["window 24 h: counts, p50/p95, failures", () => exact(one, ago(86_400))],
      ["window 7 d: counts, p50/p95, failures", () => exact(one, week)],
      ["series 7 d (6 h buckets)", () => exactSeries(one, week, 21_600)],
      ["app (both deliveries), window 7 d", () => exact(both, week)],
    ]);
    const rollupTimes = await time("from the rollup (the page's reads)", [
      ["window 1 h: counts, histogram, failures", () => windowFigures(db(), { deliveryIds: one, since: ago(3600) })],
      ["window 24 h: counts, histogram, failures", () => windowFigures(db(), { deliveryIds: one, since: ago(86_400) })],
      ["window 7 d: counts, histogram, failures", () => windowFigures(db(), { deliveryIds: one, since: week })],
      [
        "series 1 h (5 min buckets)",
        () =>
          seriesFigures(db(), {
            deliveryIds: one,
            since: ago(3600),
            strideSeconds: HEALTH_WINDOWS["1h"].strideSeconds,
          }),
      ],
      [
        "series 24 h (1 h buckets)",
        () =>
          seriesFigures(db(), {
            deliveryIds: one,
            since: ago(86_400),
            strideSeconds: HEALTH_WINDOWS["24h"].strideSeconds,
          }),
      ],
      [
        "series 7 d (6 h buckets)",
        () => seriesFigures(db(), { deliveryIds: one, since: week, strideSeconds: HEALTH_WINDOWS["7d"].strideSeconds }),
      ],
      ["backlog", () => backlogOf(db(), { deliveryIds: one })],
      ["one delivery, window 24 h (5 queries, parallel)", () => healthOf(one, "24h", now)],
      ["one delivery, window 7 d (5 queries, parallel)", () => healthOf(one, "7d", now)],
      ["app (both deliveries), window 7 d (5 queries, parallel)", () => healthOf(both, "7d", now)],
      [
        "whole page, window 7 d: app + each delivery (15 queries)",
        () => Promise.all([healthOf(both, "7d", now), healthOf([a], "7d", now), healthOf([b], "7d", now)]),
      ],
    ]);

    // The same figures both ways: counts equal, percentiles within the histogram's bound.
    console.log(`\nexact vs rollup (p50/p95 ${PERCENTILE_ERROR}):`);
    const compared = new Map<string, { x: Exact; r: Exact; agree: boolean }>();
    for (const [name, ids, since] of [
      ["1 h", one, ago(3600)],
      ["24 h", one, ago(86_400)],
      ["7 d", one, week],
      ["app 7 d", both, week],
    ] as const) {
      const [x, r] = [await exact([...ids], since), await fromRollup([...ids], since)];
      const countsEqual =
        x.attempts === r.attempts &&
        x.delivered === r.delivered &&
        JSON.stringify(Object.entries(x.failures).sort()) === JSON.stringify(Object.entries(r.failures).sort());
      const within = (e: number | null, v: number | null) =>
        e !== null && v !== null && Math.abs(v - e) <= 0.05 * e + 0.5;
      const agree = countsEqual && within(x.p50, r.p50) && within(x.p95, r.p95);
      compared.set(name, { x, r, agree });
      console.log(
        `  ${name.padEnd(8)} attempts ${x.attempts}/${r.attempts} delivered ${x.delivered}/${r.delivered} ` +
          `failures ${JSON.stringify(x.failures)}/${JSON.stringify(r.failures)} p50 ${x.p50}/${r.p50} p95 ` +
          `${x.p95}/${r.p95}: ${agree ? "agree" : "DIFFER"}`,
      );
    }

    const plan = await sql<{ "QUERY PLAN": string }[]>`
      explain (analyze, buffers) select count(*) from delivery_attempt_rollups r, jsonb_each_text(r.latency)
        where delivery_id = ${a} and bucket_seconds = 3600 and bucket_start >= ${week.toISOString()}::timestamptz`;
    console.log(
      `\nplan of the 7-day histogram's scan (hour rows):\n${plan.map((r) => `  ${r["QUERY PLAN"]}`).join("\n")}`,
    );

    // --- the write cost ---------------------------------------------------------------------
    // The rollup's price on the write path: WRITERS connections at once each commit batches of
    // BATCH attempts of delivery A (the same hot rows: one 5-minute and one 1-hour row), with and
    // without recordAttemptRollups in the transaction, alternated.
    const { recordAttemptRollups } = await import("../server/delivery/attempt-rollups");
    const WRITERS = 4;
    const BATCH = 50;
    const TXS = Number(process.env.BENCH_WRITE_TXS ?? 150);
    const [{ nd } = { nd: 0 }] = await sql<
      { nd: number }[]
    >`select id as nd from notification_deliveries where delivery_id = ${a} limit 1`;
    const pool = postgres(database.url, { max: WRITERS, onnotice: () => {} });
    const writeRun = async (rollup: boolean) => {
      const started = performance.now();
      await Promise.all(
        Array.from({ length: WRITERS }, async () => {
          for (let i = 0; i < TXS; i++) {
            await pool.begin(async (tx) => {
              const rows = await tx<
                { attempted_at: Date; outcome: string; http_status: number | null; latency_ms: number }[]
              >`
                insert into delivery_attempts (notification_delivery_id, notification_id, delivery_id, attempted_at, target, outcome, http_status, latency_ms)
                select ${nd}, 1, ${a}, now(), 'https://a.example/hook', case when g % 10 = 0 then 'RETRY' else 'DELIVERED' end, case when g % 10 = 0 then 500 else 200 end, 20 + g * 37 % 1981
                from generate_series(1, ${BATCH}) g returning attempted_at, outcome, http_status, latency_ms`;
              if (rollup)
                await recordAttemptRollups(
                  tx,
                  rows.map((r) => ({
                    deliveryId: a,
                    attemptedAt: r.attempted_at,
                    outcome: r.outcome,
                    httpStatus: r.http_status,
                    latencyMs: r.latency_ms,
                  })),
                );
            });
          }
        }),
      );
      return (WRITERS * TXS) / ((performance.now() - started) / 1000);
    };
    const rates: Record<string, number[]> = { without: [], with: [] };
    await writeRun(true);
    for (let round = 0; round < 2; round++) {
      rates.without!.push(await writeRun(false));
      rates.with!.push(await writeRun(true));
    }
    await pool.end();
    console.log(
      `\nwrite cost: ${WRITERS} connections × ${TXS} transactions of ${BATCH} attempts of one delivery ` +
        `(its rollup rows hot), transactions/s in two alternated rounds:`,
    );
    console.log(
      `  without the rollup: ${rates.without!.map((r) => r.toFixed(0)).join(", ")}; with it: ${rates.with!.map((r) => r.toFixed(0)).join(", ")}`,
    );

    // The figures, as docs/benchmarks.md's table gives them.
    const ms = (n: number) => `${n.toFixed(1)} ms`;
    const target = `< ${TARGET_MS} ms`;
    const under = (...xs: number[]) => xs.every((x) => x < TARGET_MS);
    const window1h = rollupTimes("window 1 h: counts, histogram, failures");
    const window24h = rollupTimes("window 24 h: counts, histogram, failures");
    const window7d = rollupTimes("window 7 d: counts, histogram, failures");
    const series1h = rollupTimes("series 1 h (5 min buckets)");
    const series24h = rollupTimes("series 24 h (1 h buckets)");
    const series7d = rollupTimes("series 7 d (6 h buckets)");
    const backlog = rollupTimes("backlog");
    // Each read a query of its own; the loads below run several at once.
    const reads = [window1h, window24h, window7d, series1h, series24h, series7d, backlog];
    const slowestMedian = Math.max(...reads.map((t) => t.median));
    const slowest = Math.max(...reads.map((t) => t.max));
    results.figure(
      `every read from the rollup, ${grouped(ATTEMPTS)} attempts of one delivery in the last ${SPREAD_DAYS} days + ${grouped(NOISE)} of another: median`,
      `≤ ${ms(slowestMedian)}`,
      target,
      under(slowestMedian),
    );
    results.figure("every read from the rollup: max", `≤ ${ms(slowest)}`, target, under(slowest));
    const medians = (...ts: Timed[]) => ts.map((t) => ms(t.median)).join(", ");
    results.figure(
      "window totals with histogram and failures: 1 h, 24 h, 7 d",
      medians(window1h, window24h, window7d),
      target,
      under(window1h.median, window24h.median, window7d.median),
    );
    results.figure(
      "series: 1 h, 24 h, 7 d",
      medians(series1h, series24h, series7d),
      target,
      under(series1h.median, series24h.median, series7d.median),
    );
    results.figure("backlog", ms(backlog.median), target, under(backlog.median));
    const load24h = rollupTimes("one delivery, window 24 h (5 queries, parallel)");
    const load7d = rollupTimes("one delivery, window 7 d (5 queries, parallel)");
    const appLoad = rollupTimes("app (both deliveries), window 7 d (5 queries, parallel)");
    const page = rollupTimes("whole page, window 7 d: app + each delivery (15 queries)");
    results.figure(
      "one delivery's whole load (5 queries in parallel): 24 h, 7 d",
      `${medians(load24h, load7d)} (max ${Math.max(load24h.max, load7d.max).toFixed(1)})`,
    );
    results.figure(
      "the app's whole load (both deliveries, 5 queries in parallel): 7 d",
      `${ms(appLoad.median)} (max ${appLoad.max.toFixed(1)})`,
    );
    results.figure(
      "the whole page (app + each delivery, 15 queries)",
      `${ms(page.median)} (max ${page.max.toFixed(1)})`,
    );
    results.figure(
      "the exact reads from delivery_attempts, same run: 1 h, 24 h, 7 d",
      medians(
        exactTimes("window 1 h: counts, p50/p95, failures"),
        exactTimes("window 24 h: counts, p50/p95, failures"),
        exactTimes("window 7 d: counts, p50/p95, failures"),
      ),
    );
    results.figure(
      "the exact reads from delivery_attempts: series 7 d, app 7 d",
      medians(exactTimes("series 7 d (6 h buckets)"), exactTimes("app (both deliveries), window 7 d")),
    );
    // The percentiles of the one delivery's 7-day window, where every attempt is.
    const week7 = compared.get("7 d")!;
    const pair = (e: Exact) =>
      `${e.p50 === null ? "none" : grouped(e.p50)}/${e.p95 === null ? "none" : grouped(e.p95)}`;
    results.figure(
      "p50/p95 from the rollup against exact",
      `${pair(week7.r)} ms against ${pair(week7.x)} (${week7.agree ? PERCENTILE_ERROR : "DIFFER"})`,
    );
    results.figure(
      `exact and rollup agree (counts equal, p50/p95 ${PERCENTILE_ERROR})`,
      `${[...compared.values()].filter((c) => c.agree).length} of ${compared.size} windows`,
    );
    results.figure(
      `backfill of the ${millions(ATTEMPTS + NOISE)} attempts`,
      `${backfillSeconds.toFixed(1)} s, ${grouped(rows)} rows, ${rollupSize}`,
    );
    results.figure(
      `write cost: transactions/s without the rollup / with it (${WRITERS} connections × ${TXS} of ${BATCH} attempts, two rounds)`,
      `${rates.without!.map((r) => grouped(r)).join(", ")} / ${rates.with!.map((r) => grouped(r)).join(", ")}`,
    );
    results.save();
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
