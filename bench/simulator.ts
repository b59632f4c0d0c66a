import { runScript } from "../test/helpers/processes";
import { benchDatabase, loadAverage, launchBenchService } from "./lib/setup";
import { reportLoad } from "./lib/load";
import { percentile } from "./lib/percentile";
import { machineTicks } from "./lib/cpu";
import { resultRecorder } from "./lib/results";
import { grouped } from "./lib/format";

// `npm run bench:simulator`: the sandbox simulator's real-time loop at fleet scale, on PostgreSQL
// (DATABASE_URL, or a fresh database created here and dropped at the end).
//
// The service (production build, its own loop switched off with SIMULATOR=0) takes the API calls:
// a sandbox app, a driver, VEHICLES vehicles, and one real-time run each (the Columbus downtown
// loop, a data set every 5 s, repeating, each with its own seed), started evenly over 5 s so
// their schedules spread as a real fleet's do. This process runs the loop (worker/simulator.ts,
// the same startSimulator that `npm start` runs) and measures, over BENCH_SECONDS (default 60):
//   - the achieved rate of data sets committed per second (target: 200/s = 1,000 × 1/5 s),
//   - the ingest lag p50/p99, from a data set's due time to its commit (target p99 <= 1 s),
//   - CPU: this process (the loop and ingest) as % of one core, and the whole machine's busy share.
// It also builds the Columbus routing graph once here, to report its build time and memory.

const VEHICLES = Number(process.env.BENCH_VEHICLES ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const PERIOD = 5;
const WARMUP = 10;
const TARGET_RATE = VEHICLES / PERIOD;
const TARGET_P99 = 1000;

async function call<T = unknown>(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...headers, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as T;
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function pool<T>(items: T[], concurrency: number, fn: (item: T, i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i]!, i);
      }
    }),
  );
}

const met = (ok: boolean) => (ok ? "met" : "MISSED");

async function main() {
  reportLoad("bench:simulator");
  const results = resultRecorder("bench:simulator");
  const database = benchDatabase("wl_bench_sim");
  // This process's own database client (the loop) reads DATABASE_URL through server/platform/env.ts.
  process.env.DATABASE_URL = database.url;
  console.log(
    `bench:simulator — ${VEHICLES} vehicles, a data set every ${PERIOD} s each, ${SECONDS} s measured; load average ${loadAverage()}`,
  );
  const service = await launchBenchService({
    name: "bench-sim",
    databaseUrl: database.url,
    extraEnv: { SIMULATOR: "0", RATE_LIMITS: "off" },
  });
  let simulator: { stop(): Promise<void> } | null = null;
  try {
    const { baseUrl: base, env } = service;

    const { graphFor } = await import("../server/simulator/routing");
    const { NETWORKS } = await import("../server/simulator/networks");
    const graph = graphFor(NETWORKS[0]!);
    console.log(
      `routing graph (Columbus): built in ${graph.buildMs} ms, ${(graph.heapBytes / 2 ** 20).toFixed(0)} MiB of heap, ${graph.vertices} vertices`,
    );

    const app = JSON.parse((await runScript("app-create.ts", ["--name", "bench-simulator", "--json"], env)).stdout) as {
      sandbox: { clientId: string; clientSecret: string };
    };
    const basic = {
      Authorization: `Basic ${Buffer.from(`${app.sandbox.clientId}:${app.sandbox.clientSecret}`).toString("base64")}`,
      "Content-Type": "application/x-www-form-urlencoded",
    };
    const token = async (body: string) =>
      (
        (await (await fetch(`${base}/sandbox/oauth/token`, { method: "POST", headers: basic, body })).json()) as {
          access_token: string;
        }
      ).access_token;
    const client = { Authorization: `Bearer ${await token("grant_type=client_credentials")}` };
    const { account } = await call<{ account: { accessToken: { code: string } } }>(
      base,
      "POST",
      "/sandbox/api/account/",
      client,
      { firstName: "Fleet", lastName: "Bench", username: `fleet.${Date.now()}`, password: "bench-password" },
    );
    const user = {
      Authorization: `Bearer ${await token(`grant_type=authorization_code&code=${account.accessToken.code}`)}`,
    };

    const vehicleIds: number[] = new Array(VEHICLES);
    let t = Date.now();
    await pool([...Array(VEHICLES).keys()], 16, async (_, i) => {
      vehicleIds[i] = (
        await call<{ vehicle: { vehicleId: number } }>(base, "POST", "/sandbox/api/vehicle/", user, {
          label: `Fleet ${i}`,
        })
      ).vehicle.vehicleId;
    });
    console.log(`${VEHICLES} vehicles created in ${((Date.now() - t) / 1000).toFixed(1)} s`);

    const { startSimulator } = await import("../worker/simulator");
    let measuring = false;
    let committed = 0;
    const lags: number[] = [];
    const ingestTimes: number[] = [];
    simulator = startSimulator({
      onAdvanced: ({ dueAt, committedAt, ingestMs }) => {
        if (!measuring) return;
        committed += dueAt.length;
        ingestTimes.push(ingestMs);
        for (const due of dueAt) lags.push(committedAt - due);
      },
    });

    // Start the runs evenly over one collection period.
    t = Date.now();
    await pool(vehicleIds, 16, async (id, i) => {
      const wait = t + (i * PERIOD * 1000) / VEHICLES - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      await call(base, "POST", `/sandbox/api/vehicle/${id}/simulation/`, user, {
        mode: "realtime",
        templateId: "columbus-downtown-loop",
        collectionPeriod: PERIOD,
        repeat: true,
        seed: i + 1,
      });
    });
    console.log(
      `${VEHICLES} real-time runs started in ${((Date.now() - t) / 1000).toFixed(1)} s; warming up ${WARMUP} s`,
    );
    await new Promise((r) => setTimeout(r, WARMUP * 1000));

    const cpu0 = process.cpuUsage();
    const machine0 = machineTicks();
    const start = Date.now();
    measuring = true;
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    measuring = false;
    const seconds = (Date.now() - start) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const machine1 = machineTicks();

    lags.sort((a, b) => a - b);
    ingestTimes.sort((a, b) => a - b);
    const rate = committed / seconds;
    const p99 = percentile(lags, 99);
    const loopCpu = ((cpu.user + cpu.system) / 1000 / (seconds * 1000)) * 100;
    const machineCpu = ((machine1.busy - machine0.busy) / (machine1.total - machine0.total)) * 100;
    const memory = process.memoryUsage();
    console.log(
      [
        "",
        `achieved rate       ${rate.toFixed(1)} data sets/s (${committed} in ${seconds.toFixed(1)} s)   ` +
          `target ${TARGET_RATE}/s sustained — ${met(rate >= TARGET_RATE * 0.98)}`,
        `ingest lag          p50 ${percentile(lags, 50)} ms   p99 ${p99} ms   max ${lags.at(-1)} ms (due time → committed)   ` +
          `target p99 <= ${TARGET_P99} ms — ${met(p99 <= TARGET_P99)}`,
        `ingest call         p50 ${percentile(ingestTimes, 50)} ms   p99 ${percentile(ingestTimes, 99)} ms ` +
          "(one vehicle's due data sets, one transaction; 8 at a time)",
        `CPU                 loop process ${loopCpu.toFixed(0)} % of one core; machine ${machineCpu.toFixed(0)} % busy ` +
          "(all cores, incl. PostgreSQL and the service)",
        `loop process memory rss ${(memory.rss / 2 ** 20).toFixed(0)} MiB, heap ${(memory.heapUsed / 2 ** 20).toFixed(0)} MiB ` +
          "(incl. the routing graph built above)",
        `load average        ${loadAverage()}`,
      ].join("\n"),
    );
    results.figure(
      `committed data sets, ${grouped(VEHICLES)} vehicles, ${SECONDS} s`,
      `${rate.toFixed(1)} data sets/s`,
      `${TARGET_RATE}/s sustained`,
      rate >= TARGET_RATE * 0.98,
    );
    results.figure("lag due → committed: p99", `${p99} ms`, `≤ ${TARGET_P99 / 1000} s`, p99 <= TARGET_P99);
    results.figure("lag due → committed: p50, max", `${percentile(lags, 50)} ms, ${lags.at(-1)} ms`);
    results.figure("ingest call: p50, p99", `${percentile(ingestTimes, 50)} ms, ${percentile(ingestTimes, 99)} ms`);
    results.figure("loop process", `${loopCpu.toFixed(0)} % of a core`);
    results.figure("machine busy", `${machineCpu.toFixed(0)} %`);
    results.figure(
      "loop process memory",
      `rss ${(memory.rss / 2 ** 20).toFixed(0)} MiB, heap ${(memory.heapUsed / 2 ** 20).toFixed(0)} MiB`,
    );
    results.figure(
      "routing graph (Columbus)",
      `built in ${graph.buildMs} ms, ${(graph.heapBytes / 2 ** 20).toFixed(0)} MiB of heap`,
    );
    results.save();
  } finally {
    await simulator?.stop();
    await service.stop();
    const { closeDb } = await import("../db/client");
    await closeDb();
    database.drop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
