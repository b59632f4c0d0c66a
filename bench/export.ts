import fs from "node:fs";
import { Unzip, UnzipInflate } from "fflate";
import postgres from "postgres";
import { type RunningApp } from "../test/helpers/processes";
import { benchDatabase, benchDriver, driverSession, launchBenchService } from "./lib/setup";
import { reportLoad } from "./lib/load";
import { resultRecorder } from "./lib/results";
import { grouped } from "./lib/format";

// `npm run bench:export`: "Download my data" for a driver with BENCH_POINTS data points (default
// 1,000,000: 100,000 data sets of 10 points, in 100 trips), on PostgreSQL, production build, one
// HTTP process. The points are written straight into the database (ingest has its own benchmark);
// the ZIP is then read over HTTP from GET /me/export as the site's page reads it, and unpacked as
// it arrives to count the data-point rows. The service's RSS is sampled from /proc every 50 ms, from after a
// first export of the still empty account (the route loaded). Targets: the whole export within 60 s, RSS
// rising by at most 200 MB over the level before it.

const POINTS = Number(process.env.BENCH_POINTS ?? 1_000_000);
const PER_SET = 10;
const SETS_PER_TRIP = 1000;
const MB = 1_048_576;
const TARGET_SECONDS = 60;
const TARGET_RISE_MB = 200;
const mb = (n: number) => (n / MB).toFixed(0);

function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

async function seed(sql: postgres.Sql, vehicleId: number, points: number) {
  const sets = Math.ceil(points / PER_SET);
  const trips = Math.ceil(sets / SETS_PER_TRIP);
  const t0 = new Date(Date.now() - (sets + 60) * 60_000).toISOString();
  await sql`
    insert into trips (environment, vehicle_id, start_time, end_time, last_data_at, mileage)
    select 'production', ${vehicleId}, ${t0}::timestamptz + make_interval(mins => i * ${SETS_PER_TRIP}),
           ${t0}::timestamptz + make_interval(mins => i * ${SETS_PER_TRIP} + ${SETS_PER_TRIP - 1}),
           ${t0}::timestamptz + make_interval(mins => i * ${SETS_PER_TRIP} + ${SETS_PER_TRIP - 1}), 12.5
      from generate_series(0, ${trips - 1}) i`;
  await sql`
    with t as (select id, row_number() over (order by id) - 1 as n from trips where vehicle_id = ${vehicleId})
    insert into data_sets (environment, vehicle_id, trip_id, recorded_at, points_from, points_to, ignition_status)
    select 'production', ${vehicleId}, t.id, a.at, a.at, a.at, 'RUNNING'
      from generate_series(0, ${sets - 1}) s join t on t.n = s / ${SETS_PER_TRIP}
      cross join lateral (select ${t0}::timestamptz + make_interval(mins => s) as at) a`;
  await sql`
    insert into data_points (vehicle_id, data_set_id, position, recorded_at, key, value)
    select ${vehicleId}, d.id, p,
           d.recorded_at,
           case p when 0 then 'GEN_WAYPOINT' when 1 then 'GEN_SPEED' when 2 then 'GEN_HEADING' when 3 then 'GEN_RPM'
                  when 4 then 'GEN_FUELLEVEL' when 5 then 'GEN_VOLTAGE' when 6 then 'GEN_ODOMETER'
                  when 7 then 'GEN_ENGINE_COOLANT_TEMP' when 8 then 'GEN_FUELRATE' else 'GEN_TRIP_MILEAGE' end,
           case p when 0 then round((39.9 + (d.id % 1000) * 0.0001)::numeric, 6)::text || ',' ||
                              round((-83.0 + (d.id % 997) * 0.0001)::numeric, 6)::text
                  else ((d.id * 7 + p * 13) % 100)::text end
      from data_sets d cross join generate_series(0, ${PER_SET - 1}) p
     where d.vehicle_id = ${vehicleId}
     order by d.id, p
     limit ${points}`;
  await sql`
    insert into vehicle_data_stats (vehicle_id, data_sets, data_points) values (${vehicleId}, ${sets}, ${points})
    on conflict (vehicle_id) do update set data_sets = excluded.data_sets, data_points = excluded.data_points`;
  await sql`analyze data_points`;
}

/** Old space for the second measurement (NODE_OPTIONS), in MB. */
const CAPPED_HEAP_MB = 192;

/** One export, read whole (the warm-up). */
async function exportOnce(service: RunningApp, cookie: string) {
  const res = await fetch(`${service.baseUrl}/me/export`, { headers: { Cookie: cookie } });
  if (res.status !== 200) throw new Error(`export: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}

type Measured = {
  rows: number;
  bytes: number;
  seconds: number;
  rssBefore: number;
  rssPeak: number;
  heapUsedPeak: number;
  heapTotalPeak: number;
};

/** The export read and unpacked as it arrives, with the service's RSS and V8 heap sampled meanwhile. */
async function measured(service: RunningApp, cookie: string): Promise<Measured> {
  const rssBefore = rssOf(service.pid);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssOf(service.pid))), 50);
  // What of that is V8's heap in use (live objects and garbage not yet collected), from the service's metrics.
  let heapUsedPeak = 0;
  let heapTotalPeak = 0;
  const heap = setInterval(() => {
    fetch(`${service.baseUrl}/metrics`)
      .then((r) => r.text())
      .then((text) => {
        const gauge = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1] ?? 0);
        heapUsedPeak = Math.max(heapUsedPeak, gauge("wayline_nodejs_heap_size_used_bytes"));
        heapTotalPeak = Math.max(heapTotalPeak, gauge("wayline_nodejs_heap_size_total_bytes"));
      })
      .catch(() => {});
  }, 250);
  try {
    const started = Date.now();
    const res = await fetch(`${service.baseUrl}/me/export`, { headers: { Cookie: cookie } });
    if (res.status !== 200 || !res.body) throw new Error(`export: ${res.status} ${await res.text()}`);
    let bytes = 0;
    let rows = -1; // the header line
    const unzip = new Unzip((file) => {
      if (file.name !== "data-points.csv") return;
      file.ondata = (error, chunk) => {
        if (error) throw error;
        for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) rows++;
      };
      file.start();
    });
    unzip.register(UnzipInflate);
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
      unzip.push(value);
    }
    unzip.push(new Uint8Array(0), true);
    const seconds = (Date.now() - started) / 1000;
    rssPeak = Math.max(rssPeak, rssOf(service.pid));
    return { rows, bytes, seconds, rssBefore, rssPeak, heapUsedPeak, heapTotalPeak };
  } finally {
    clearInterval(sampler);
    clearInterval(heap);
  }
}

function report(label: string, m: Measured) {
  console.log(`${label}:`);
  console.log(
    `  data-point rows in the ZIP: ${m.rows.toLocaleString("en-US")} (expected ${POINTS.toLocaleString("en-US")})`,
  );
  console.log(
    `  ZIP: ${(m.bytes / MB).toFixed(1)} MB in ${m.seconds.toFixed(1)} s (target <= ${TARGET_SECONDS} s for 1,000,000 points)`,
  );
  console.log(
    `  service RSS: ${mb(m.rssBefore)} MB before, ${mb(m.rssPeak)} MB at most, +${mb(m.rssPeak - m.rssBefore)} MB (target <= +${TARGET_RISE_MB} MB)`,
  );
  console.log(
    `  V8 heap during the export (metrics, every 250 ms): at most ${mb(m.heapUsedPeak)} MB in use of ${mb(m.heapTotalPeak)} MB`,
  );
  if (m.rows !== POINTS) throw new Error(`the export lost or added data points: ${m.rows}`);
}

async function main() {
  reportLoad("bench:export");
  const results = resultRecorder("bench:export");
  const database = benchDatabase("wayline_bench_export");
  const service = await launchBenchService({ name: "bench-export", databaseUrl: database.url });
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  try {
    const driver = await benchDriver(service.baseUrl, service.env, "bench-export");
    const vehicleId = await driver.newVehicle("Export car");
    const cookie = await driverSession(service.baseUrl, driver.username, driver.password);
    // A first export while the account holds no points: the route's code loads and its statements are
    // prepared, so the figure below is what a million points cost, not what the first request of a route does.
    const cold = rssOf(service.pid);
    await exportOnce(service, cookie);
    console.log(
      `service RSS: ${(cold / MB).toFixed(0)} MB before a first export of the empty account, ${(rssOf(service.pid) / MB).toFixed(0)} MB after it`,
    );
    console.log(`Seeding ${POINTS.toLocaleString("en-US")} data points…`);
    const seeded = Date.now();
    await seed(sql, vehicleId, POINTS);
    console.log(`  seeded in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);

    console.log(`\nGET /me/export, ${POINTS.toLocaleString("en-US")} data points, PostgreSQL, production build`);
    const plain = await measured(service, cookie);
    report("Node's default heap", plain);
    // The same export from a service whose V8 old space is capped, as a container's memory limit would make it:
    // if the rise above were data the export holds, this one would fail or slow down; garbage is collected sooner.
    await service.restart({ NODE_OPTIONS: `--max-old-space-size=${CAPPED_HEAP_MB}` });
    await exportOnce(service, cookie);
    const capped = await measured(service, cookie);
    report(`--max-old-space-size=${CAPPED_HEAP_MB}`, capped);

    const rise = plain.rssPeak - plain.rssBefore;
    results.figure(
      `time for ${grouped(POINTS)} points`,
      `${plain.seconds.toFixed(1)} s`,
      `≤ ${TARGET_SECONDS} s`,
      plain.seconds <= TARGET_SECONDS,
    );
    results.figure(
      "RSS before → at most (default heap)",
      `${mb(plain.rssBefore)} → ${mb(plain.rssPeak)} MB (+${mb(rise)} MB)`,
      `≤ +${TARGET_RISE_MB} MB`,
      rise <= TARGET_RISE_MB * MB,
    );
    results.figure("V8 heap at most, in use", `${mb(plain.heapUsedPeak)} MB`);
    results.figure("ZIP", `${(plain.bytes / MB).toFixed(1)} MB`);
    results.figure(
      `with --max-old-space-size=${CAPPED_HEAP_MB}`,
      `${capped.seconds.toFixed(1)} s, +${mb(capped.rssPeak - capped.rssBefore)} MB`,
    );
    results.save();
  } finally {
    await sql.end();
    await service.stop();
    database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
