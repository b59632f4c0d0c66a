import os from "node:os";
import autocannon from "autocannon";
import { launchService } from "../test/helpers/processes";
import { benchDatabase, benchDriver } from "./lib/setup";

// `npm run bench:api`: the production build on PostgreSQL. GET /v1/api/vehicle/ (an account with
// 50 vehicles, a valid user token, 32 connections) side by side with a bare Next.js route doing
// the same token lookup and query (app/bench/vehicles), then POST /oauth/token client_credentials.
// Targets: wrapper/bare throughput ratio >= 0.8, p99 <= 50 ms; >= 200 grants/s.
// Then the same two API loads once more against `npm start` with one HTTP process per core
// (WEB_CONCURRENCY), on the same database, printed beside the single process's figures.

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;

type Result = { rps: number; p50: number; p99: number; errors: number; non2xx: number };

async function load(opts: autocannon.Options): Promise<Result> {
  const r = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
}

const fmt = (name: string, r: Result) =>
  `${name.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(4)} ms   errors ${r.errors}   non-2xx ${r.non2xx}`;

async function main() {
  let single: { list: Result; grants: Result } | null = null;
  const database = benchDatabase("wayline_bench");
  const service = await launchService({ name: "bench", databaseUrl: database.url, extraEnv: { BENCH_ROUTES: "1" } });
  const { baseUrl: base, env } = service;
  try {
    const driver = await benchDriver(base, env, "bench-api");
    const { form, auth } = driver;
    for (let i = 0; i < 50; i++) await driver.newVehicle(`Vehicle ${i}`);
    const check = (await (await fetch(`${base}/v1/api/vehicle/`, { headers: auth })).json()) as { vehicle: unknown[] };
    if (check.vehicle.length !== 50) throw new Error(`expected 50 vehicles, got ${check.vehicle.length}`);

    console.log(`Warming up (${CONNECTIONS} connections)…`);
    const warm = { connections: CONNECTIONS, duration: 3, headers: auth };
    await autocannon({ ...warm, url: `${base}/v1/api/vehicle/` });
    await autocannon({ ...warm, url: `${base}/bench/vehicles` });

    const ours = await load({ url: `${base}/v1/api/vehicle/`, headers: auth });
    const bare = await load({ url: `${base}/bench/vehicles`, headers: auth });
    const grants = await load({ url: `${base}/oauth/token`, method: "POST", headers: form, body: "grant_type=client_credentials" });
    single = { list: ours, grants };

    console.log(`\nGET vehicle list, ${DURATION} s each, ${CONNECTIONS} connections, PostgreSQL, production build`);
    console.log(fmt("GET /v1/api/vehicle/ (wrapper)", ours));
    console.log(fmt("GET /bench/vehicles (bare handler)", bare));
    const ratio = ours.rps / bare.rps;
    console.log(`ratio wrapper/bare: ${ratio.toFixed(2)} (target >= 0.80)   p99 ${ours.p99} ms (target <= 50 ms)`);
    console.log(fmt("POST /oauth/token client_credentials", grants));
    console.log(`grants/s: ${grants.rps.toFixed(0)} (target >= 200)`);
  } finally {
    await service.stop();
  }

  // All cores: the same loads on a cluster of one HTTP process per core (the same database, the
  // same driver and vehicles), after the single process has stopped.
  const cores = os.availableParallelism();
  const cluster = await launchService({ name: "bench-cores", databaseUrl: database.url, extraEnv: { BENCH_ROUTES: "1", WEB_CONCURRENCY: String(cores) } });
  try {
    const driver = await benchDriver(cluster.baseUrl, cluster.env, "bench-api-cores");
    for (let i = 0; i < 50; i++) await driver.newVehicle(`Vehicle ${i}`);
    const url = `${cluster.baseUrl}/v1/api/vehicle/`;
    await autocannon({ connections: CONNECTIONS, duration: 3, headers: driver.auth, url });
    const list = await load({ url, headers: driver.auth });
    const grants = await load({ url: `${cluster.baseUrl}/oauth/token`, method: "POST", headers: driver.form, body: "grant_type=client_credentials" });
    console.log(`\nSingle process and all cores (${cores} HTTP processes), same database, ${DURATION} s each`);
    console.log(fmt(`GET /v1/api/vehicle/, ${cores} processes`, list));
    console.log(fmt(`POST /oauth/token, ${cores} processes`, grants));
    if (single) console.log(`all cores / one process: vehicle list ${(list.rps / single.list.rps).toFixed(2)}×, token grants ${(grants.rps / single.grants.rps).toFixed(2)}×`);
  } finally {
    await cluster.stop();
    database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
