import os from "node:os";
import autocannon from "autocannon";
import { benchDatabase, benchDriver, benchRateLimits, launchBenchService } from "./lib/setup";
import { launchBaseline } from "./lib/baseline";
import { reportLoad } from "./lib/load";
import { resultRecorder } from "./lib/results";

// `npm run bench:api`: the production build on PostgreSQL. GET /v1/api/vehicle/ (an account with 50
// vehicles, a valid user token, 32 connections) side by side with a bare Next.js route doing the same
// token lookup and query (bench/baseline/app/[env]/bench/vehicles/route.ts, in the baseline app beside the
// service, on its database: bench/lib/baseline.ts), then POST /oauth/token client_credentials.
// Targets: wrapper/bare throughput ratio >= 0.9, p99 <= 50 ms; >= 200 grants/s.
// Then the vehicle list with the access log on and off (two fresh services beside it, one with
// ACCESS_LOG=off), and the two API loads on the single process and on `npm start` with one HTTP process per core
// (WEB_CONCURRENCY) beside it, on the same database, in alternating slices.

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;

type Result = { rps: number; p50: number; p99: number; errors: number; non2xx: number };

async function load(opts: autocannon.Options): Promise<Result> {
  const r = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}

const fmt = (name: string, r: Result) =>
  `${name.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${String(r.p50).padStart(4)} ms   ` +
  `p99 ${String(r.p99).padStart(4)} ms   errors ${r.errors}   non-2xx ${r.non2xx}`;

async function main() {
  reportLoad("bench:api");
  const results = resultRecorder("bench:api");
  const database = benchDatabase("wayline_bench");
  const service = await launchBenchService({
    name: "bench",
    databaseUrl: database.url,
    extraEnv: { ...benchRateLimits() },
  });
  const { baseUrl: base, env } = service;
  const baseline = await launchBaseline(service).catch(async (error: unknown) => {
    await service.stop();
    throw error;
  });
  try {
    const driver = await benchDriver(base, env, "bench-api");
    const { form, auth } = driver;
    for (let i = 0; i < 50; i++) await driver.newVehicle(`Vehicle ${i}`);
    const check = (await (await fetch(`${base}/v1/api/vehicle/`, { headers: auth })).json()) as { vehicle: unknown[] };
    if (check.vehicle.length !== 50) throw new Error(`expected 50 vehicles, got ${check.vehicle.length}`);

    console.log(`Warming up (${CONNECTIONS} connections)…`);
    const warm = { connections: CONNECTIONS, duration: 3, headers: auth };
    await autocannon({ ...warm, url: `${base}/v1/api/vehicle/` });
    await autocannon({ ...warm, url: `${baseline.baseUrl}/v1/bench/vehicles` });

    // In slices of half a phase in the order ours, bare, bare, ours: a drift of the machine over the
    // run weighs on both alike (a single phase each moved the ratio by a tenth from run to run).
    const wrapperSides = {
      ours: { url: `${base}/v1/api/vehicle/`, headers: auth },
      bare: { url: `${baseline.baseUrl}/v1/bench/vehicles`, headers: auth },
    };
    const wrapperOrder = ["ours", "bare", "bare", "ours"] as const;
    const wrapperSlices: { side: string; r: Result }[] = [];
    for (const side of wrapperOrder)
      wrapperSlices.push({ side, r: await load({ ...wrapperSides[side], duration: DURATION / 2 }) });
    const ours = combine(wrapperSlices.filter((x) => x.side === "ours").map((x) => x.r));
    const bare = combine(wrapperSlices.filter((x) => x.side === "bare").map((x) => x.r));
    const grants = await load({
      url: `${base}/oauth/token`,
      method: "POST",
      headers: form,
      body: "grant_type=client_credentials",
    });

    console.log(
      `\nGET vehicle list, ${CONNECTIONS} connections, PostgreSQL, production build, slices of ${DURATION / 2} s in the order ${wrapperOrder.join(", ")}`,
    );
    console.log(fmt("GET /v1/api/vehicle/ (wrapper)", ours));
    console.log(fmt("GET /v1/bench/vehicles (bare handler)", bare));
    const ratio = ours.rps / bare.rps;
    console.log(`ratio wrapper/bare: ${ratio.toFixed(2)} (target >= 0.90)   p99 ${ours.p99} ms (target <= 50 ms)`);
    console.log(fmt("POST /oauth/token client_credentials", grants));
    console.log(`grants/s: ${grants.rps.toFixed(0)} (target >= 200)`);
    results.figure("vehicle list: wrapper / bare handler", ratio.toFixed(2), "≥ 0.9", ratio >= 0.9);
    results.figure("vehicle list through the wrapper", `${ours.rps.toFixed(0)} req/s`);
    results.figure("vehicle list p99", `${ours.p99} ms`, "≤ 50 ms", ours.p99 <= 50);
    results.figure("client-credentials grants", `${grants.rps.toFixed(0)}/s`, "≥ 200/s", grants.rps >= 200);

    // The access log's cost (docs/operations.md#the-access-log): two fresh services on the same
    // database, one with the log on and one with ACCESS_LOG=off, the same driver and token, each
    // warmed up alike, measured in slices on, off, off, on. (Against the first service, which had
    // served every phase above, the log-off one measured 0.82 in two runs: a fresh process against
    // a worn one.) Target: on/off >= 0.95.
    const launchSide = (name: string, accessLog: "on" | "off") =>
      launchBenchService({
        name,
        databaseUrl: database.url,
        extraEnv: { ...benchRateLimits(), ACCESS_LOG: accessLog },
      });
    const logged = await launchSide("bench-log", "on");
    const unlogged = await launchSide("bench-nolog", "off").catch(async (error: unknown) => {
      await logged.stop();
      throw error;
    });
    try {
      const logSides = {
        on: { url: `${logged.baseUrl}/v1/api/vehicle/`, headers: auth },
        off: { url: `${unlogged.baseUrl}/v1/api/vehicle/`, headers: auth },
      };
      const warmUp = Math.min(20, 2 * DURATION);
      for (const side of ["on", "off"] as const) await autocannon({ ...warm, duration: warmUp, ...logSides[side] });
      const logOrder = ["on", "off", "off", "on"] as const;
      const logSlices: { side: string; r: Result }[] = [];
      for (const side of logOrder)
        logSlices.push({ side, r: await load({ ...logSides[side], duration: DURATION / 2 }) });
      const on = combine(logSlices.filter((x) => x.side === "on").map((x) => x.r));
      const off = combine(logSlices.filter((x) => x.side === "off").map((x) => x.r));
      console.log(
        `\nAccess log on and off, two fresh services on the same database, slices of ${DURATION / 2} s in the order ${logOrder.join(", ")}`,
      );
      console.log(fmt("GET /v1/api/vehicle/, log on", on));
      console.log(fmt("GET /v1/api/vehicle/, ACCESS_LOG=off", off));
      console.log(`ratio on/off: ${(on.rps / off.rps).toFixed(3)} (target >= 0.95)`);
      const logRatio = on.rps / off.rps;
      results.figure("access log on / off", logRatio.toFixed(2), "≥ 0.95", logRatio >= 0.95);
    } finally {
      await unlogged.stop();
      await logged.stop();
    }

    // All cores: a cluster of one HTTP process per core beside the single process, on the same
    // database (a driver and 50 vehicles of its own), measured in slices one, all, all, one (a
    // steady drift of the machine then weighs on both alike).
    const cores = os.availableParallelism();
    const cluster = await launchBenchService({
      name: "bench-cores",
      databaseUrl: database.url,
      extraEnv: { ...benchRateLimits(), WEB_CONCURRENCY: String(cores) },
    });
    try {
      const clusterDriver = await benchDriver(cluster.baseUrl, cluster.env, "bench-api-cores");
      for (let i = 0; i < 50; i++) await clusterDriver.newVehicle(`Vehicle ${i}`);
      const sides = {
        one: {
          list: { url: `${base}/v1/api/vehicle/`, headers: auth },
          grant: { url: `${base}/oauth/token`, headers: form },
        },
        all: {
          list: { url: `${cluster.baseUrl}/v1/api/vehicle/`, headers: clusterDriver.auth },
          grant: { url: `${cluster.baseUrl}/oauth/token`, headers: clusterDriver.form },
        },
      };
      // Each process of the cluster warms up on its own, and V8 takes a route to full speed over
      // many seconds of load on a busy machine (probe here: a fresh cluster ran at a quarter of
      // its later rate after 6 s of load).
      await autocannon({ ...warm, duration: 20, ...sides.all.list });
      await autocannon({
        ...warm,
        duration: 10,
        ...sides.all.grant,
        method: "POST",
        body: "grant_type=client_credentials",
      });
      const order = ["one", "all", "all", "one"] as const;
      const slices = { list: [] as { side: string; r: Result }[], grant: [] as { side: string; r: Result }[] };
      for (const side of order)
        slices.list.push({ side, r: await load({ ...sides[side].list, duration: DURATION / 2 }) });
      for (const side of order)
        slices.grant.push({
          side,
          r: await load({
            ...sides[side].grant,
            method: "POST",
            body: "grant_type=client_credentials",
            duration: DURATION / 2,
          }),
        });
      const of = (list: { side: string; r: Result }[], side: string) =>
        combine(list.filter((x) => x.side === side).map((x) => x.r));
      console.log(
        `\nOne process and all cores (${cores} HTTP processes), same database, slices of ${DURATION / 2} s in the order ${order.join(", ")}`,
      );
      const rows = [
        ["GET /v1/api/vehicle/", of(slices.list, "one"), of(slices.list, "all")],
        ["POST /oauth/token", of(slices.grant, "one"), of(slices.grant, "all")],
      ] as const;
      for (const [name, one, all] of rows) {
        console.log(fmt(`${name}, 1 process`, one));
        console.log(fmt(`${name}, ${cores} processes`, all));
        console.log(`  all cores / one process: ${(all.rps / one.rps).toFixed(2)}×`);
        results.figure(`${name}: ${cores} processes / one`, `${(all.rps / one.rps).toFixed(2)}×`);
      }
    } finally {
      await cluster.stop();
    }
    results.save();
  } finally {
    await baseline.stop();
    await service.stop();
    database.drop();
  }
}

/** Slices of one side as one: requests over their total time; p50 the slices' mean, p99 the highest. */
function combine(results: Result[]): Result {
  const sum = (k: keyof Result) => results.reduce((n, r) => n + r[k], 0);
  return {
    rps: sum("rps") / results.length,
    p50: Math.round(sum("p50") / results.length),
    p99: Math.max(...results.map((r) => r.p99)),
    errors: sum("errors"),
    non2xx: sum("non2xx"),
  };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
