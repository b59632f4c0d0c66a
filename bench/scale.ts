import { execFileSync } from "node:child_process";
import postgres from "postgres";
import { launchService, runScript, type ServiceEnv } from "../test/helpers/processes";
import { dataSet, waypoint } from "../test/helpers/telemetry";
import { benchDatabase, benchDriver, benchRateLimits, driverSession, loadAverage } from "./lib/setup";
import { reportLoad } from "./lib/load";

// `npm run bench:scale` (issue 32, point 2): the same figures on an empty database and on one holding
// BENCH_POINTS data points (default 50,000,000) of BENCH_VEHICLES vehicles (default 1,000) over BENCH_MONTHS
// months (default 4), in one run, against the production build on PostgreSQL: single and batched ingest
// rates, every device-data read's p99 (BENCH_SAMPLES sequential requests, default 200, after a warm-up),
// the event feed's read, the live map's read (a driver-site session), and the bytes on disk per million points;
// then the time retention takes to drop the oldest month. Target: every figure at size within 20 % of empty; dropping a month ≤ 1 s.
//
// The bulk is written at the database level, as a year of ingest would have left it (data sets every few
// minutes, 3 points each, the counters), with INSERT … SELECT generate_series per chunk of vehicles, into
// the month partitions made first (docs/partitions.md); the measured vehicle's own data goes through the API.
// A small run to check it works:
// BENCH_POINTS=300000 BENCH_VEHICLES=20 BENCH_SAMPLES=20 npm run bench:scale

const POINTS = Number(process.env.BENCH_POINTS ?? 50_000_000);
const VEHICLES = Number(process.env.BENCH_VEHICLES ?? 1_000);
const MONTHS = Number(process.env.BENCH_MONTHS ?? 4);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const WARMUP = Math.min(20, SAMPLES);
const POINTS_PER_SET = 3;
const VEHICLES_PER_CHUNK = 10;
const DAY = 86_400_000;

type Figure = { name: string; unit: string; value: number; higherIsBetter: boolean };

/** The wire's DateTime (docs/api.md#datetime). */
const wireTime = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}Z$/, "+0000");
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main() {
  reportLoad("bench:scale");
  const database = benchDatabase("wl_bench_scale");
  const sql = postgres(database.url, { max: 2, onnotice: () => {} });
  const service = await launchService({ name: "bench-scale", databaseUrl: database.url, extraEnv: benchRateLimits() });
  try {
    const base = service.baseUrl;
    const driver = await benchDriver(base, service.env, "bench-scale", { dataProvider: true });
    const vehicleId = await driver.newVehicle("Measured");
    // The driver site's session, for the live map's read.
    const site = { Cookie: await driverSession(base, driver.username, driver.password) };
    const json = { ...driver.auth, "Content-Type": "application/json" };
    let clock = Date.now() - 2 * DAY; // the measured vehicle's data: the last two days, in order
    const nextSets = (n: number) =>
      Array.from({ length: n }, () => {
        clock += 1_000;
        return dataSet(new Date(clock), "RUNNING", [waypoint(40.1, -83.1), { key: "GEN_SPEED", value: 42 }]);
      });
    const post = async (body: unknown) => {
      const began = performance.now();
      const res = await fetch(`${base}/v1/api/vehicle/${vehicleId}/dataSet/`, {
        method: "POST",
        headers: json,
        body: JSON.stringify(body),
      });
      const ms = performance.now() - began;
      if (res.status !== 200) throw new Error(`ingest: ${res.status} ${(await res.text()).slice(0, 300)}`);
      await res.arrayBuffer();
      return ms;
    };

    const measure = async (label: string): Promise<Figure[]> => {
      console.log(`bench:scale: measuring ${label} (load ${loadAverage()})`);
      const figures: Figure[] = [];
      // An ON opens a trip of this phase's own: the trip read below then reads the same number of data
      // sets on either side (the sets below extend it), not the whole run's.
      clock += 1_000;
      await post([dataSet(new Date(clock), "ON", [waypoint(40.1, -83.1)])]);
      // Single data sets, one request each.
      for (let i = 0; i < WARMUP; i++) await post(nextSets(1));
      const singles: number[] = [];
      const singleStart = performance.now();
      for (let i = 0; i < SAMPLES; i++) singles.push(await post(nextSets(1)));
      const singleSeconds = (performance.now() - singleStart) / 1000;
      singles.sort((a, b) => a - b);
      figures.push({ name: "single posts", unit: "posts/s", value: SAMPLES / singleSeconds, higherIsBetter: true });
      figures.push({ name: "single post p99", unit: "ms", value: pct(singles, 99), higherIsBetter: false });
      // Batches of 500 data sets.
      const batches: number[] = [];
      const batchCount = Math.max(5, Math.round(SAMPLES / 20));
      const batchStart = performance.now();
      for (let i = 0; i < batchCount; i++) batches.push(await post(nextSets(500)));
      const batchSeconds = (performance.now() - batchStart) / 1000;
      batches.sort((a, b) => a - b);
      figures.push({
        name: "batches of 500",
        unit: "points/s",
        value: (batchCount * 500 * 2) / batchSeconds,
        higherIsBetter: true,
      });
      figures.push({ name: "batch p99", unit: "ms", value: pct(batches, 99), higherIsBetter: false });
      // Every device-data read, and the feed's.
      const [trip] = await sql<
        { id: string }[]
      >`select id::text from trips where vehicle_id = ${vehicleId} order by start_time desc limit 1`;
      const [set] = await sql<
        { id: string }[]
      >`select id::text from data_sets where vehicle_id = ${vehicleId} order by recorded_at desc limit 1`;
      const v = `${base}/v1/api/vehicle/${vehicleId}`;
      const reads: [string, string, Record<string, string>][] = [
        ["data/", `${v}/data/`, driver.auth],
        ["data/?key=GEN_SPEED", `${v}/data/?key=GEN_SPEED`, driver.auth],
        ["data/?mostRecentOnly=true", `${v}/data/?mostRecentOnly=true`, driver.auth],
        ["dataSet/", `${v}/dataSet/`, driver.auth],
        ["dataSet/{id}", `${v}/dataSet/${set?.id ?? 0}`, driver.auth],
        ["trip/", `${v}/trip/`, driver.auth],
        ["account/data/", `${base}/v1/api/account/data/`, driver.auth],
        [
          "eventFeed/",
          `${base}/v1/api/eventFeed/?since=${encodeURIComponent(wireTime(new Date(Date.now() - DAY)))}`,
          { Authorization: `Bearer ${driver.clientToken}` },
        ],
      ];
      if (trip) reads.push(["trip/{id}", `${v}/trip/${trip.id}`, driver.auth]);
      // The live map's poll (and what its stream reads on each change): the driver's vehicles where they are.
      reads.push(["/me/positions (the map)", `${base}/me/positions`, site]);
      for (const [name, url, headers] of reads) {
        const once = async () => {
          const began = performance.now();
          const res = await fetch(url, { headers });
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`${name}: ${res.status}`);
          return performance.now() - began;
        };
        for (let i = 0; i < WARMUP; i++) await once();
        const samples: number[] = [];
        for (let i = 0; i < SAMPLES; i++) samples.push(await once());
        samples.sort((a, b) => a - b);
        figures.push({ name: `GET ${name} p50`, unit: "ms", value: pct(samples, 50), higherIsBetter: false });
        figures.push({ name: `GET ${name} p99`, unit: "ms", value: pct(samples, 99), higherIsBetter: false });
      }
      // Bytes on disk per million points: data_points with its indexes, every partition.
      const [size] = await sql<{ bytes: string; n: string }[]>`
        select (select sum(pg_total_relation_size(inhrelid))::text from pg_inherits where inhparent = 'data_points'::regclass) as bytes,
               (select count(*)::text from data_points) as n`;
      figures.push({
        // Bytes a point are megabytes a million points.
        name: "disk per million points",
        unit: "MB",
        value: Number(size!.bytes) / Math.max(1, Number(size!.n)),
        higherIsBetter: false,
      });
      return figures;
    };

    // A first pass, not counted: the service's code and PostgreSQL's caches warm up on it (in runs without it, the
    // empty database measured slower than the full one: single posts 90 against 129 per second).
    await measure("a warm-up (not counted)");
    const empty = await measure("an empty database");
    await fill(sql);
    const full = await measure(`${POINTS.toLocaleString("en")} points`);

    // Retention dropping the oldest month, twice: the fill's first month (partial), then its second (whole). Each
    // run's cutoff is the end of the oldest month left.
    const drops = [await dropOldestMonth(sql, service.env), await dropOldestMonth(sql, service.env)];

    console.log(`\nbench:scale — ${VEHICLES} vehicles, ${MONTHS} months, load ${loadAverage()}`);
    console.log(`| figure | empty | ${POINTS.toLocaleString("en")} points | at size / empty | within 20 % |`);
    console.log("| --- | --- | --- | --- | --- |");
    for (const e of empty) {
      const f = full.find((x) => x.name === e.name)!;
      const ratio = f.value / e.value;
      const ok = e.higherIsBetter ? ratio >= 0.8 : ratio <= 1.2;
      console.log(
        `| ${e.name} (${e.unit}) | ${e.value.toFixed(1)} | ${f.value.toFixed(1)} | ${ratio.toFixed(2)} | ${ok ? "yes" : "NO"} |`,
      );
    }
    for (const d of drops) {
      console.log(
        `\nretention --days ${d.days}: ${d.result.partitions} month(s) dropped, ${d.result.deleted.toLocaleString("en")} points, ${d.seconds.toFixed(2)} s for the whole run (a process start, the partitions ahead, the month's counters under its lock, the drop, and the batches' pass over every vehicle)`,
      );
      for (const m of d.months)
        console.log(
          `  ${m.partition}: ${m.points.toLocaleString("en")} points; the month's transaction ${m.emptyMs} ms (its counter rows off the totals ${m.countersMs} ms, the detach ${m.detachMs} ms, commit ${m.commitMs} ms: target ≤ 1 s); then the drop of the detached month, which no request waits for, ${m.dropMs} ms`,
        );
    }
  } finally {
    await sql.end();
    await service.stop();
    database.drop();
  }
}

/** `npm run retention` with its cutoff at the end of the oldest month of data_points: that month dropped, and its figures. */
async function dropOldestMonth(sql: postgres.Sql, env: ServiceEnv) {
  const [oldest] = await sql<{ name: string }[]>`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
     where i.inhparent = 'data_points'::regclass and c.relname ~ '_p[0-9]{6}$' order by c.relname limit 1`;
  const year = Number(oldest!.name.slice(-6, -2));
  const month = Number(oldest!.name.slice(-2));
  const days = Math.floor((Date.now() - Date.UTC(year, month, 1)) / DAY);
  const began = performance.now();
  const { stdout, stderr } = await runScript("retention.ts", ["--days", String(days)], { ...env, LOG_LEVEL: "info" });
  const seconds = (performance.now() - began) / 1000;
  const result = JSON.parse(stdout.trim().split("\n").pop()!) as { deleted: number; partitions: number };
  // The month's own figures, from the retention's log line (JSON on stderr).
  const months = stderr
    .split("\n")
    .filter((line) => line.includes("emptied a month of data points"))
    .map(
      (line) =>
        JSON.parse(line) as {
          partition: string;
          points: number;
          emptyMs: number;
          countersMs: number;
          detachMs: number;
          commitMs: number;
          dropMs: number;
        },
    );
  return { days, seconds, result, months };
}

/** The bulk: VEHICLES vehicles of an account of their own, POINTS points over MONTHS months before the last two days. */
async function fill(sql: postgres.Sql) {
  const setsPerVehicle = Math.ceil(POINTS / POINTS_PER_SET / VEHICLES);
  const end = Date.now() - 3 * DAY;
  const start = end - MONTHS * 30 * DAY;
  const stepSeconds = Math.max(1, Math.floor((end - start) / 1000 / setsPerVehicle));
  console.log(
    `bench:scale: filling ${VEHICLES} vehicles × ${setsPerVehicle} data sets × ${POINTS_PER_SET} points (one every ${stepSeconds} s)`,
  );
  const began = performance.now();
  for (let m = new Date(start); m.getTime() <= end; m = new Date(Date.UTC(m.getUTCFullYear(), m.getUTCMonth() + 1, 1)))
    for (const table of ["data_sets", "data_points"])
      await sql`select wayline_create_partition(${table}, 'recorded_at', ${m})`;
  // The bulk vehicles belong to an account of their own: the measured account's reads (account/data/) then
  // compare the same account on a small and a large table, not a small and a large account.
  const [account] = await sql<{ id: number }[]>`
    insert into accounts (first_name, last_name, username, password_hash, environment)
    values ('Bulk', 'Fleet', ${`bulk-${Date.now()}`}, 'x', 'production') returning id`;
  const ids = await sql<{ id: number }[]>`
    insert into vehicles (environment, account_id, label)
    select 'production', ${account!.id}, 'Bulk ' || g from generate_series(1, ${VEHICLES}) g returning id`;
  for (let i = 0; i < ids.length; i += VEHICLES_PER_CHUNK) {
    const chunk = ids.slice(i, i + VEHICLES_PER_CHUNK).map((r) => r.id);
    await sql.begin(async (tx) => {
      await tx`
        with s as (
          insert into data_sets (environment, vehicle_id, recorded_at, points_from, points_to, ignition_status)
          select 'production', v, t.at, t.at, t.at, 'RUNNING'
            from unnest(${chunk}::int[]) v cross join generate_series(0, ${setsPerVehicle - 1}) g
            cross join lateral (select ${new Date(start)}::timestamptz + make_interval(secs => g * ${stepSeconds}) as at) t
          returning id, vehicle_id, recorded_at)
        insert into data_points (vehicle_id, data_set_id, position, recorded_at, key, value)
        select s.vehicle_id, s.id, k.position, s.recorded_at, k.key,
               case k.key when 'GEN_WAYPOINT' then '40.1,-83.1' when 'GEN_SPEED' then (s.id % 90)::text else '13.9' end
          from s cross join (values (0, 'GEN_WAYPOINT'), (1, 'GEN_SPEED'), (2, 'GEN_VOLTAGE')) as k(position, key)`;
      await tx`
        insert into vehicle_data_stats (vehicle_id, data_sets, data_points)
        select v, ${setsPerVehicle}, ${setsPerVehicle * POINTS_PER_SET} from unnest(${chunk}::int[]) v`;
      await tx`
        insert into vehicle_key_stats (vehicle_id, key, month, data_points)
        select v, k, m.month, m.n from unnest(${chunk}::int[]) v cross join unnest(array['GEN_WAYPOINT', 'GEN_SPEED', 'GEN_VOLTAGE']) k
          cross join (select date_trunc('month', (${new Date(start)}::timestamptz + make_interval(secs => g * ${stepSeconds})) at time zone 'UTC')::date as month, count(*) as n
                        from generate_series(0, ${setsPerVehicle - 1}) g group by 1) m`;
    });
  }
  await sql`vacuum analyze`;
  console.log(`bench:scale: filled in ${((performance.now() - began) / 1000).toFixed(0)} s (load ${loadAverage()})`);
  // The fill's gigabytes written out before measuring (PostgreSQL's checkpoint, then the system's page cache): in
  // a run without it, the figures at size were taken while they were still being written, twice the empty ones.
  const flushing = performance.now();
  await sql`checkpoint`;
  execFileSync("sync");
  console.log(
    `bench:scale: checkpoint and sync in ${((performance.now() - flushing) / 1000).toFixed(0)} s (load ${loadAverage()})`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
