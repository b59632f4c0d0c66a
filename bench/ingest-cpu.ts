import fs from "node:fs";
import autocannon from "autocannon";
import postgres from "postgres";
import { launchService } from "../test/helpers/processes";
import { benchDatabase, benchDriver, benchRateLimits } from "./lib/setup";
import { dataSet, waypoint } from "../test/helpers/telemetry";
import { reportLoad } from "./lib/load";

// `npm run bench:ingest-cpu`: the CPU one single data-set POST costs, in node (the service's
// process) and in PostgreSQL (the service pool's backends), read from /proc (Linux) around
// BENCH_SECONDS (default 15) of bench:ingest (a)'s load (32 connections over 32 vehicles, each
// posting in order) after 10 s of warm-up. Throughput on a shared machine moves with its other
// load; CPU per request moves much less, so this tells two versions of ingest apart where
// bench:ingest (a) cannot.

const DURATION = Number(process.env.BENCH_SECONDS ?? 15);
const CONNECTIONS = 32;

/** utime + stime of a process, in clock ticks (10 ms). */
const ticks = (pid: number) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return Number(fields[11]) + Number(fields[12]);
};

const start = Math.floor((Date.now() - 60 * 86_400_000) / 1000) * 1000;
const clock = new Map<number, number>();
const nextSet = (vehicle: number) => {
  const n = clock.get(vehicle) ?? 0;
  clock.set(vehicle, n + 1);
  return JSON.stringify(
    dataSet(new Date(start + n * 1000), "RUNNING", [
      waypoint(39.5 + n * 1e-5, -83),
      { key: "GEN_SPEED", value: 20 + (n % 50) },
      { key: "GEN_HEADING", value: n % 360 },
    ]),
  );
};

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
          return { ...req, path: `/v1/api/vehicle/${vehicle}/dataSet/`, body: nextSet(vehicle) };
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
  const database = benchDatabase("wayline_bench_cpu");
  const service = await launchService({
    name: "bench-ingest-cpu",
    databaseUrl: database.url,
    extraEnv: benchRateLimits(),
  });
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  try {
    const driver = await benchDriver(service.baseUrl, service.env, "bench-ingest-cpu", { dataProvider: true });
    const vehicles: number[] = [];
    for (let i = 0; i < CONNECTIONS; i++) vehicles.push(await driver.newVehicle(`Bench ${i}`));
    await post(service.baseUrl, driver.auth, vehicles, 10);
    const backends = (await sql`select pid from pg_stat_activity where application_name = 'wayline'`).map((r) =>
      Number(r.pid),
    );
    const before = { node: ticks(service.pid), postgres: backends.map(ticks) };
    const posts = await post(service.baseUrl, driver.auth, vehicles, DURATION);
    const nodeMs = (ticks(service.pid) - before.node) * 10;
    const postgresMs = backends.reduce((sum, pid, i) => sum + ticks(pid) - before.postgres[i]!, 0) * 10;
    console.log(`single data-set POSTs: ${posts} in ${DURATION} s`);
    console.log(
      `CPU per post: node ${(nodeMs / posts).toFixed(3)} ms, PostgreSQL ${(postgresMs / posts).toFixed(3)} ms (${backends.length} backends)`,
    );
  } finally {
    await sql.end();
    await service.stop();
    database.drop();
  }
}

await main();
