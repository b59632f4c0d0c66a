import { parseArgs } from "node:util";
import postgres from "postgres";
import { portPlan } from "../server/devices/gateway/ports";
import { freeDeviceOffset, startGatewayProcess } from "../test/helpers/gateway-process";
import { loggedErrors, stopProcess } from "../test/helpers/processes";
import {
  BATCH,
  POINTS_PER_SET,
  batchLoad,
  combine,
  dataSetPath,
  fmt,
  leased,
  nextTime,
  p50p99,
  runningSet,
  settle,
  type Leased,
} from "./lib/api-load";
import { addCpu, cpuLine, cpuMeter, postmasterPid, type CpuSpent } from "./lib/cpu";
import { grouped } from "./lib/format";
import { reportLoad } from "./lib/load";
import { openFilesLimit, rssKb } from "./lib/memory";
import { inParallel } from "./lib/parallel";
import { resultRecorder } from "./lib/results";
import { benchDatabase, benchDriver, benchRateLimits, launchBenchService } from "./lib/setup";
import { RECORDS_PER_PACKET, drive, openTrackers, type Drive, type Tracker } from "./devices/trackers";

// `npm run bench:devices`: the device gateway (docs/devices.md) as `npm run gateway` runs it, its
// own process beside the service (production build, DEVICE_GATEWAY=off), on device ports found free
// (DEVICE_PORT_OFFSET), on a PostgreSQL database made for the run and dropped at the end (or
// DATABASE_URL). Vehicles name the devices' ids (IMEIs for the trackers). In one run:
//
// (b) first, on the fresh gateway: --idle (default 10,000) Teltonika connections that completed
//     the IMEI handshake and then send nothing (trackers between reports); the gateway's RSS with
//     them open, less before, per connection. Target: <= 20 KB.
// (a) --devices (default 1,000) Teltonika trackers on open TCP connections, each sending Codec 8
//     Extended packets of 10 records (a second apart, moving, ignition on), the next packet only
//     after the previous one's acknowledgement; beside bench:ingest (b)'s batched API ingest (500
//     data sets a POST, 4 connections), in slices of half a phase: API, devices, devices, API.
//     Records stored per second (data_sets rows the slice added, over the time to its last
//     acknowledgement) against the API's data sets per second. Targets: >= 0.8 of the API's;
//     acknowledgement p99 <= 250 ms. Every record acknowledged must be stored exactly once.
// (c) --phones (default 500) OsmAnd phones (HTTP keep-alive, one request after the other each)
//     beside single data-set POSTs at as many connections, in slices OsmAnd, POST, POST, OsmAnd:
//     rate and p99 of each. No target: the figures say what a phone's request costs beside a post.
//
// BENCH_SECONDS (default 10) sets each phase's length. BENCH_DEVICES, BENCH_IDLE and BENCH_PHONES
// are the flags' defaults: `npm run bench:devices -- --devices 50 --idle 200 --phones 20` checks
// that it runs (its figures say nothing).

const { values: flags } = parseArgs({
  options: { devices: { type: "string" }, idle: { type: "string" }, phones: { type: "string" } },
});
const size = (flag: string | undefined, env: string | undefined, fallback: number) => {
  const n = Number(flag ?? env ?? fallback);
  if (!Number.isInteger(n) || n < 1) throw new Error(`bench:devices: a size of ${flag ?? env}: a whole number ≥ 1`);
  return n;
};
const DEVICES = size(flags.devices, process.env.BENCH_DEVICES, 1_000);
const IDLE = size(flags.idle, process.env.BENCH_IDLE, 10_000);
const PHONES = size(flags.phones, process.env.BENCH_PHONES, 500);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP = 3;

const TARGET_RATIO = 0.8;
const TARGET_ACK_P99 = 250;
const TARGET_KB_PER_CONNECTION = 20;

/** Files a process needs beside the connections: its modules, pools, pipes, the listeners. */
const FILES_BESIDE = 200;

const met = (ok: boolean) => (ok ? "met" : "MISSED");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** 15 digits, as a Teltonika IMEI: the i-th of this run. */
const imei = (i: number) => `35600${String(i).padStart(10, "0")}`;
const phoneId = (i: number) => `bench-phone-${i}`;

async function main() {
  reportLoad("bench:devices");
  // Both ends of every idle connection are ours: this process holds one, the gateway (started with
  // this process's limit) the other.
  const limit = openFilesLimit();
  if (limit < IDLE + FILES_BESIDE)
    throw new Error(
      `bench:devices: ${IDLE} idle connections need ${IDLE + FILES_BESIDE} open files here and in the ` +
        `gateway, and the limit is ${limit}: raise it (ulimit -n ${IDLE + 1_000}) or ask for fewer (--idle N)`,
    );
  const results = resultRecorder("bench:devices");
  const database = benchDatabase("wayline_bench_devices");
  const service = await launchBenchService({
    name: "bench-devices",
    databaseUrl: database.url,
    extraEnv: { ...benchRateLimits() },
  });
  const sql = postgres(database.url, { max: 2, onnotice: () => {} });
  let gateway: Awaited<ReturnType<typeof startGatewayProcess>> | null = null;
  const open: Tracker[] = [];
  const closeAll = () => {
    for (const t of open.splice(0)) t.close();
  };
  try {
    const offset = await freeDeviceOffset();
    gateway = await startGatewayProcess({
      ...service.env,
      DEVICE_HOST: "127.0.0.1",
      DEVICE_PORT_OFFSET: String(offset),
      DRAIN_TIMEOUT_SECONDS: "10",
    });
    const gatewayPid = gateway.child.pid!;
    const ports = portPlan(offset).production;
    const base = service.baseUrl;

    // The vehicles, through the API as a partner makes them, each naming its device.
    const t0 = performance.now();
    const driver = await benchDriver(base, service.env, "bench-devices", { dataProvider: true });
    const make = (n: number, label: string, id?: (i: number) => string) =>
      inParallel(n, 16, (i) => driver.newVehicle(`${label} ${i}`, id?.(i)));
    const batchers = await make(4, "Batch");
    const trackerVehicles = await make(DEVICES, "Tracker", imei);
    await make(IDLE, "Parked", (i) => imei(DEVICES + i));
    const phoneVehicles = await make(PHONES, "Phone", phoneId);
    const singles = await make(PHONES, "Single");
    console.log(
      `bench:devices: ${4 + DEVICES + IDLE + 2 * PHONES} vehicles made in ` +
        `${((performance.now() - t0) / 1000).toFixed(0)} s; gateway pid ${gatewayPid}, device ports +${offset}`,
    );
    const firstFix = Math.floor((Date.now() - 30 * 86_400_000) / 1000) * 1000;

    // (b) idle connections on the fresh gateway. A few hundred handshakes first, closed again, so
    // that the handshake's code and the database pool are warm before the memory is read.
    const released = async () => {
      for (let i = 0; i < 600; i++) {
        const [row] = await sql`select count(*)::int as n from device_contacts where connection is not null`;
        if (row!.n === 0) return;
        await sleep(100);
      }
      throw new Error("the gateway did not record the connections' end within 60 s");
    };
    const idleImeis = Array.from({ length: IDLE }, (_, i) => imei(DEVICES + i));
    open.push(...(await openTrackers(ports.teltonika, idleImeis.slice(0, Math.min(IDLE, 300)), { firstFix })));
    closeAll();
    await released();
    await sleep(1_000);
    const rssBefore = rssKb(gatewayPid);
    const t1 = performance.now();
    open.push(...(await openTrackers(ports.teltonika, idleImeis, { firstFix })));
    const handshakeSeconds = (performance.now() - t1) / 1000;
    await sleep(3_000);
    const rssAfter = rssKb(gatewayPid);
    const perConnectionKb = (rssAfter - rssBefore) / IDLE;
    closeAll();
    await released();

    // (a) trackers beside batched API ingest.
    const trackers = await openTrackers(
      ports.teltonika,
      trackerVehicles.map((_, i) => imei(i)),
      { firstFix },
    );
    open.push(...trackers);
    const batches = batchLoad({ url: base, headers: driver.auth, vehicles: batchers });
    const stored = async () => {
      const [row] = await sql`select count(*)::int as n from data_sets where vehicle_id in ${sql(trackerVehicles)}`;
      return row!.n as number;
    };
    console.log(`Warming up (a), ${WARMUP} s each…`);
    const warmBatches = await leased({ ...batches, duration: WARMUP });
    await settle(sql);
    const warmDevices = await drive(trackers, WARMUP);
    await settle(sql);
    type DeviceSlice = Drive & { stored: number };
    const apiSlices: Leased[] = [];
    const deviceSlices: DeviceSlice[] = [];
    const order = ["api", "devices", "devices", "api"] as const;
    // Each slice's CPU (bench/lib/cpu.ts): node is the service's on the API's side and the
    // gateway's on the devices', and this process's own shows that the trackers are not the bound.
    const postmaster = await postmasterPid(sql);
    const measure = { api: cpuMeter(service.pid, postmaster), devices: cpuMeter(gatewayPid, postmaster) };
    const cpu: Record<"api" | "devices", CpuSpent[]> = { api: [], devices: [] };
    for (const side of order) {
      if (side === "api") {
        const { result, cpu: spent } = await measure.api(() => leased({ ...batches, duration: DURATION / 2 }));
        apiSlices.push(result);
        cpu.api.push(spent);
      } else {
        const before = await stored();
        const { result, cpu: spent } = await measure.devices(() => drive(trackers, DURATION / 2));
        cpu.devices.push(spent);
        await settle(sql);
        deviceSlices.push({ ...result, stored: (await stored()) - before });
      }
      await settle(sql);
    }
    const api = combine(apiSlices);
    const apiSets = (api.ok * BATCH) / api.seconds;
    const deviceSeconds = deviceSlices.reduce((n, s) => n + s.seconds, 0);
    const deviceRecords = deviceSlices.reduce((n, s) => n + s.stored, 0) / deviceSeconds;
    const acks = p50p99(deviceSlices.flatMap((s) => s.latencies));
    const ratio = deviceRecords / apiSets;

    // Every record acknowledged stored exactly once: each tracker's vehicle holds as many data sets
    // as were acknowledged to it, at the times it sent (a second apart from its first fix).
    const [check] = await sql`select count(*)::int as sets,
        (select count(*) from data_points where vehicle_id in ${sql(trackerVehicles)})::int as points
      from data_sets where vehicle_id in ${sql(trackerVehicles)}`;
    const perVehicle = await sql<{ vehicle_id: number; n: number; first: Date; last: Date }[]>`
      select vehicle_id, count(*)::int as n, min(recorded_at) as first, max(recorded_at) as last
        from data_sets where vehicle_id in ${sql(trackerVehicles)} group by vehicle_id`;
    const byVehicle = new Map(perVehicle.map((r) => [r.vehicle_id, r]));
    const acknowledged = trackers.reduce((n, t) => n + t.acknowledged, 0);
    const wrong = trackers.filter((t, i) => {
      const row = byVehicle.get(trackerVehicles[i]!);
      const span = t.span();
      if (!span) return row !== undefined;
      return row?.n !== t.acknowledged || row.first.getTime() !== span.first || row.last.getTime() !== span.last;
    });
    // A record carries more data points than the API's data sets (9 against 3), and PostgreSQL's work
    // grows with the points: their ratio is printed beside the data sets' (the target's).
    const pointsPerRecord = check!.sets ? check!.points / check!.sets : 0;
    const pointsRatio = (deviceRecords * pointsPerRecord) / (apiSets * POINTS_PER_SET);
    const sliceRecords = deviceSlices.reduce((n, s) => n + s.records, 0);
    const sliceStored = deviceSlices.reduce((n, s) => n + s.stored, 0);
    const problems = [
      ...(check!.sets !== acknowledged ? [`${check!.sets} data sets for ${acknowledged} records acknowledged`] : []),
      ...(sliceStored !== sliceRecords
        ? [`the slices stored ${sliceStored} data sets and were acknowledged ${sliceRecords} records`]
        : []),
      ...(wrong.length ? [`${wrong.length} trackers' vehicles do not hold exactly their acknowledged records`] : []),
    ];
    closeAll();
    await released();

    // (c) phones over OsmAnd beside single posts, as many connections each.
    const phoneOf = new Map(phoneVehicles.map((v, i) => [v, phoneId(i)]));
    const osmand = {
      url: `http://127.0.0.1:${ports.osmand}`,
      connections: PHONES,
      vehicles: phoneVehicles,
      headers: {},
      method: "GET" as const,
      path: (v: number) => {
        const { at, n } = nextTime(v);
        const step = n % 100_000;
        return (
          `/?id=${phoneOf.get(v)}&timestamp=${at.getTime() / 1000}&lat=${(39.5 + step * 1e-5).toFixed(6)}` +
          `&lon=${(-83 + step * 1e-5).toFixed(6)}&speed=${15 + (n % 30)}&bearing=${n % 360}&altitude=200&accuracy=5&batt=80`
        );
      },
    };
    const posts = {
      url: base,
      connections: PHONES,
      vehicles: singles,
      headers: driver.auth,
      path: dataSetPath,
      body: (v: number) => JSON.stringify(runningSet(v)),
    };
    console.log(`Warming up (c), ${WARMUP} s each…`);
    const warmPhones = await leased({ ...osmand, duration: WARMUP });
    await settle(sql);
    const warmPosts = await leased({ ...posts, duration: WARMUP });
    await settle(sql);
    const phoneSlices: Leased[] = [];
    const postSlices: Leased[] = [];
    for (const side of ["osmand", "post", "post", "osmand"] as const) {
      if (side === "osmand") phoneSlices.push(await leased({ ...osmand, duration: DURATION / 2 }));
      else postSlices.push(await leased({ ...posts, duration: DURATION / 2 }));
      await settle(sql);
    }
    const phones = combine(phoneSlices);
    const singlePosts = combine(postSlices);
    // A request answered 200 was stored; one still in flight when its run ended may have been.
    const [requests] = await sql`select
        (select count(*) from data_sets where vehicle_id in ${sql(phoneVehicles)})::int as phones,
        (select count(*) from data_sets where vehicle_id in ${sql(singles)})::int as posts`;
    const between = (what: string, n: number, runs: Leased[]) => {
      const ok = runs.reduce((s, r) => s + r.ok, 0);
      const sent = runs.reduce((s, r) => s + r.sent, 0);
      return n >= ok && n <= sent ? [] : [`${what}: ${n} stored, ${ok} answered, ${sent} sent`];
    };
    problems.push(
      ...between("(c) OsmAnd requests", requests!.phones, [warmPhones, ...phoneSlices]),
      ...between("(c) single posts", requests!.posts, [warmPosts, ...postSlices]),
    );

    console.log(
      `\n(b) ${grouped(IDLE)} idle Teltonika connections (IMEI answered 01, then nothing), opened in ` +
        `${handshakeSeconds.toFixed(1)} s: gateway RSS ${grouped(rssBefore)} → ${grouped(rssAfter)} KB, ` +
        `${perConnectionKb.toFixed(1)} KB a connection (target <= ${TARGET_KB_PER_CONNECTION} KB): ` +
        `${met(perConnectionKb <= TARGET_KB_PER_CONNECTION)}`,
    );
    console.log(
      `\n(a) ${grouped(DEVICES)} Teltonika trackers, Codec 8E packets of ${RECORDS_PER_PACKET} records, each after ` +
        `the previous one's acknowledgement, beside batches of ${BATCH} data sets through the API; slices of ` +
        `${DURATION / 2} s, in order ${order.join(", ")}`,
    );
    console.log(fmt(`POST /v1/api/vehicle/{id}/dataSet/ [${BATCH}]`, api));
    console.log(
      `  API: ${grouped(apiSets)} data sets/s (${POINTS_PER_SET} data points each); slices ` +
        `${apiSlices.map((s) => grouped((s.ok * BATCH) / s.seconds)).join(", ")}`,
    );
    console.log(
      `  devices: ${grouped(deviceRecords)} records stored/s (${pointsPerRecord.toFixed(1)} data ` +
        `points each); slices ${deviceSlices.map((s) => grouped(s.stored / s.seconds)).join(", ")}; ` +
        `${grouped(deviceSlices.reduce((n, s) => n + s.packets, 0))} packets, warm-up ${grouped(warmDevices.packets)}`,
    );
    console.log(
      `  CPU in the slices:\n    API     ${cpuLine(addCpu(cpu.api), (api.ok * BATCH) / 1000, "1,000 data sets")}\n` +
        `    devices ${cpuLine(addCpu(cpu.devices), sliceStored / 1000, "1,000 records")} (node: the gateway)`,
    );
    console.log(
      `  acknowledgement p50 ${acks.p50} ms, p99 ${acks.p99} ms (target <= ${TARGET_ACK_P99} ms): ` +
        `${met(acks.p99 <= TARGET_ACK_P99)}`,
    );
    console.log(
      `  devices / API: ${ratio.toFixed(2)} (target >= ${TARGET_RATIO}): ${met(ratio >= TARGET_RATIO)}` +
        ` (warm-up batches: ${warmBatches.ok}); in data points, ${pointsRatio.toFixed(2)}`,
    );
    console.log(`\n(c) ${grouped(PHONES)} phones over OsmAnd beside single posts at ${grouped(PHONES)} connections`);
    console.log(fmt("OsmAnd GET /?id=…", phones));
    console.log(fmt("POST /v1/api/vehicle/{id}/dataSet/", singlePosts));
    const phoneRatio = phones.rps / singlePosts.rps;
    console.log(`  OsmAnd / single posts: ${phoneRatio.toFixed(2)}× the rate`);

    const gatewayErrors = loggedErrors(gateway.output());
    if (gatewayErrors.length) problems.push(`the gateway logged ${gatewayErrors.length} errors: ${gatewayErrors[0]}`);
    console.log(
      `\ncheck: ${
        problems.length
          ? problems.join("; ")
          : `every record acknowledged was stored, once (${grouped(check!.sets)} data sets, ` +
            `${grouped(check!.points)} data points); every request answered was stored`
      }`,
    );
    if (problems.length) throw new Error("bench:devices: the check failed; no figures written");

    results.figure(
      `(a) ${grouped(DEVICES)} Teltonika devices, packets of ${RECORDS_PER_PACKET}: records stored / API batches' data sets`,
      ratio.toFixed(2),
      `≥ ${TARGET_RATIO}`,
      ratio >= TARGET_RATIO,
    );
    results.figure("(a) records stored by the devices", `${grouped(deviceRecords)} records/s`);
    results.figure(`(a) batched API ingest (${BATCH} a POST)`, `${grouped(apiSets)} data sets/s`);
    results.figure(
      `(a) the same in data points (a record ${pointsPerRecord.toFixed(0)}, an API data set ${POINTS_PER_SET})`,
      pointsRatio.toFixed(2),
    );
    results.figure("(a) acknowledgement p99", `${acks.p99} ms`, `≤ ${TARGET_ACK_P99} ms`, acks.p99 <= TARGET_ACK_P99);
    results.figure("(a) acknowledgement p50", `${acks.p50} ms`);
    results.figure(
      `(b) gateway memory per idle connection, ${grouped(IDLE)} connections`,
      `${perConnectionKb.toFixed(1)} KB`,
      `≤ ${TARGET_KB_PER_CONNECTION} KB`,
      perConnectionKb <= TARGET_KB_PER_CONNECTION,
    );
    results.figure(`(c) ${grouped(PHONES)} OsmAnd phones`, `${grouped(phones.rps)} req/s, p99 ${phones.p99} ms`);
    results.figure(
      `(c) single data-set POSTs, ${grouped(PHONES)} connections`,
      `${grouped(singlePosts.rps)} req/s, p99 ${singlePosts.p99} ms`,
    );
    results.save();
  } finally {
    closeAll();
    await sql.end({ timeout: 5 });
    if (gateway) await stopProcess(gateway.child);
    await service.stop();
    database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
