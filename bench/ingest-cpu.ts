import os from "node:os";
import autocannon from "autocannon";
import postgres from "postgres";
import { benchDatabase, benchDriver, benchRateLimits, launchBenchService } from "./lib/setup";
import { dataSet, waypoint } from "../test/helpers/telemetry";
import { reportLoad } from "./lib/load";
import { resultRecorder } from "./lib/results";
import { grouped } from "./lib/format";
import { MIXED_SUBSCRIPTIONS, subscribeMixed } from "./lib/subscriptions";
import { cpuLine, cpuMeter, postmasterPid } from "./lib/cpu";

// `npm run bench:ingest-cpu`: the CPU one single data-set POST costs, in node (the service's
// process) and in PostgreSQL (the whole server: the pool's backends, and the autovacuum and WAL
// writing their writes cause), read from /proc (Linux, lib/cpu.ts) around
// BENCH_SECONDS (default 15) of bench:ingest (a)'s load (32 connections over 32 vehicles, each
// posting in order) after 10 s of warm-up. Throughput on a shared machine moves with its other
// load; CPU per request moves much less, so this tells two versions of ingest apart where
// bench:ingest (a) cannot. BENCH_BATCH=500: bench:ingest (b)'s load instead (batches of 500 data
// sets, 4 connections over 4 vehicles), its CPU given per 1,000 data points, to say which side
// of a batch (node or PostgreSQL) costs what. BENCH_PROCESSES=2: `npm start` with that many HTTP
// processes (WEB_CONCURRENCY), node's CPU summed over them. Beside node and PostgreSQL it prints
// the load generator's own CPU and how busy the whole machine was: where every core-second went,
// so a run says whether a second process had a free core to use (docs/benchmarks.md#one-process-and-all-cores).
// BENCH_SUBSCRIBED=1: every vehicle first gets bench:ingest (c)'s ten subscriptions (lib/subscriptions.ts),
// so the figures are a subscribed post's, its notifications and their pending deliveries included.
// BENCH_CPU_PROF=<dir>: the service's node processes also write V8 CPU profiles there (node
// --cpu-prof, written when the service stops; they cover its start and warm-up too), to see
// where node's share goes.

const DURATION = Number(process.env.BENCH_SECONDS ?? 15);
const BATCH = Number(process.env.BENCH_BATCH ?? 1);
const CONNECTIONS = BATCH > 1 ? 4 : 32;
const PROCESSES = Number(process.env.BENCH_PROCESSES ?? 1);
const POINTS_PER_SET = 3;
const SUBSCRIBED = process.env.BENCH_SUBSCRIBED === "1";

const start = Math.floor((Date.now() - 60 * 86_400_000) / 1000) * 1000;
const clock = new Map<number, number>();
const nextSet = (vehicle: number) => {
  const n = clock.get(vehicle) ?? 0;
  clock.set(vehicle, n + 1);
  return dataSet(new Date(start + n * 1000), "RUNNING", [
    waypoint(39.5 + n * 1e-5, -83),
    { key: "GEN_SPEED", value: 20 + (n % 50) },
    { key: "GEN_HEADING", value: n % 360 },
  ]);
};
/** One data set, or a batch of BATCH of them, for the vehicle's next seconds. */
const nextBody = (vehicle: number) =>
  JSON.stringify(BATCH > 1 ? Array.from({ length: BATCH }, () => nextSet(vehicle)) : nextSet(vehicle));

/** Posts for `seconds`, each connection leasing a vehicle no other request is using (as bench/ingest.ts); the 2xx count. */
async function post(base: string, auth: Record<string, string>, vehicles: number[], seconds: number): Promise<number> {
  const free = [...vehicles];
  type Ctx = { vehicle?: number };
  const result = await autocannon({
    url: base,
    connections: vehicles.length,
    duration: seconds,
    timeout: 30,
    headers: { ...auth, "Content-Type": "application/json" },
    requests: [
      {
        method: "POST",
        setupRequest: (req, context: Ctx) => {
          const vehicle = free.pop()!;
          context.vehicle = vehicle;
          return { ...req, path: `/v1/api/vehicle/${vehicle}/dataSet/`, body: nextBody(vehicle) };
        },
        onResponse: (_status, _body, context: Ctx) => {
          free.push(context.vehicle!);
          context.vehicle = undefined;
        },
      },
    ],
  });
  // Every answer must be a stored data set: CPU spent on refusals (a 429 from a rate limit left
  // on, say) would make the figure per post meaningless.
  const refused = result.non2xx + result.errors + result.timeouts;
  if (refused > 0)
    throw new Error(
      `${refused} of ${result.requests.total} posts were not answered 2xx: the figure would not be per stored post`,
    );
  return result["2xx"];
}

async function main() {
  reportLoad("bench:ingest-cpu");
  const results = resultRecorder("bench:ingest-cpu");
  const database = benchDatabase("wayline_bench_cpu");
  const service = await launchBenchService({
    name: "bench-ingest-cpu",
    databaseUrl: database.url,
    extraEnv: { ...benchRateLimits(), WEB_CONCURRENCY: String(PROCESSES) },
    nodeFlags: process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [],
  });
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  try {
    const driver = await benchDriver(service.baseUrl, service.env, "bench-ingest-cpu", { dataProvider: true });
    const vehicles: number[] = [];
    for (let i = 0; i < CONNECTIONS; i++) vehicles.push(await driver.newVehicle(`Bench ${i}`));
    if (SUBSCRIBED) for (const vehicle of vehicles) await subscribeMixed(service.baseUrl, driver.auth, vehicle);
    await post(service.baseUrl, driver.auth, vehicles, 10);
    const notifications = async () => (await sql<{ n: number }[]>`select count(*)::int as n from notifications`)[0]!.n;
    const notesBefore = await notifications();
    const measure = cpuMeter(service.pid, await postmasterPid(sql));
    const { result: posts, cpu } = await measure(() => post(service.baseUrl, driver.auth, vehicles, DURATION));
    const notes = await notifications();
    const processes =
      `${PROCESSES} HTTP process${PROCESSES > 1 ? "es" : ""}` +
      (SUBSCRIBED
        ? `, ${MIXED_SUBSCRIPTIONS.length} subscriptions a vehicle (${notes - notesBefore} notifications)`
        : "");
    // Per unit of work: 1,000 points for batches, one post for single posts.
    const [units, unit, digits] =
      BATCH > 1 ? [(posts * BATCH * POINTS_PER_SET) / 1000, "1,000 points", 2] : [posts, "post", 3];
    console.log(
      BATCH > 1
        ? `batches of ${BATCH} data sets x ${POINTS_PER_SET} points, ${processes}: ${posts} in ${DURATION} s ` +
            `(${((units * 1000) / DURATION).toFixed(0)} points/s)`
        : `single data-set POSTs, ${processes}: ${posts} in ${DURATION} s`,
    );
    console.log(`CPU: ${cpuLine(cpu, units, unit, digits)} (${os.cpus().length} cores)`);
    const share = (ms: number) => `${((ms / cpu.busyMs) * 100).toFixed(0)} %`;
    console.log(
      `of the busy time: node ${share(cpu.nodeMs)}, PostgreSQL ${share(cpu.postgresMs)}, load generator ${share(cpu.ownMs)}`,
    );

    // The settings a run was made with head its figures: each kind of run measures something else.
    const kind =
      [
        BATCH > 1 && `BENCH_BATCH=${BATCH}`,
        PROCESSES > 1 && `BENCH_PROCESSES=${PROCESSES}`,
        SUBSCRIBED && "BENCH_SUBSCRIBED=1",
      ]
        .filter(Boolean)
        .join(", ") || "single posts";
    const per = (ms: number) => `${(ms / units).toFixed(digits)} ms`;
    results.figure(`${kind}: node CPU per ${unit}`, per(cpu.nodeMs));
    results.figure(`${kind}: PostgreSQL CPU per ${unit}`, per(cpu.postgresMs));
    results.figure(`${kind}: load generator CPU per ${unit}`, per(cpu.ownMs));
    results.figure(`${kind}: the machine busy`, `${((cpu.busyMs / cpu.machineMs) * 100).toFixed(0)} %`);
    results.figure(
      `${kind}: ${BATCH > 1 ? "batches" : "posts"} in ${DURATION} s`,
      BATCH > 1 ? `${grouped(posts)} (${grouped((units * 1000) / DURATION)} points/s)` : grouped(posts),
    );
    results.save();
  } finally {
    await sql.end();
    await service.stop();
    database.drop();
  }
}

await main();
