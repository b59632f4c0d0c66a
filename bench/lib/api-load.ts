import autocannon from "autocannon";
import type postgres from "postgres";
import { dataSet, waypoint } from "../../test/helpers/telemetry";
import { percentile } from "./percentile";

// The API's ingest as the benchmarks load it: autocannon over a pool of vehicles, each request
// for a vehicle no other request is using at that moment (a lease), with strictly increasing
// timestamps in the past, one second apart (the wire DateTime has seconds): what a fleet of
// devices does, and no request waits on another's vehicle row lock or arrives late. bench:ingest
// measures its phases with it, and bench:devices sets the device gateway beside its batches and
// single posts.

export const BATCH = 500;
export const POINTS_PER_SET = 3;
// Batches: 4 uploaders, each for its own vehicle. Each batch is one transaction under its
// vehicle's row lock, so one uploader per vehicle is the real shape (a device or the simulator
// sends its batches in order). Four is twice the cores here: enough to keep node and PostgreSQL
// both busy (one request parses JSON while another waits on the database), while more would only
// queue on 2 cores and lengthen p99 without adding throughput.
export const BATCH_CONNECTIONS = 4;

export type Result = {
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  errors: number;
  non2xx: number;
  seconds: number;
  minRps: number;
};

/**
 * A run's result, with its requests' latencies as this process saw them (from the body built to the
 * answer read, ms), so that slices of one path combine into one p99 over all their requests.
 */
export type Leased = Result & { overbooked: number; sent: number; latencies: number[] };

export const fmt = (name: string, r: Result) =>
  `${name.padEnd(40)} ${r.rps.toFixed(0).padStart(6)} req/s   p50 ${String(r.p50).padStart(4)} ms   ` +
  `p99 ${String(r.p99).padStart(4)} ms   2xx ${r.ok}   errors ${r.errors}   non-2xx ${r.non2xx}`;

// Timestamps: per vehicle, one second apart, starting 60 days ago (so every one is in the past).
export const SETS_FROM = Math.floor((Date.now() - 60 * 86_400_000) / 1000) * 1000;
const clock = new Map<number, number>();
/** The vehicle's next time (and how many came before it), across every run of this process. */
export const nextTime = (vehicle: number) => {
  const n = clock.get(vehicle) ?? 0;
  clock.set(vehicle, n + 1);
  return { at: new Date(SETS_FROM + n * 1000), n };
};

/** The vehicle's next data set: RUNNING, a position along a line, a speed and a heading. */
export const runningSet = (vehicle: number) => {
  const { at, n } = nextTime(vehicle);
  const step = n % 100_000;
  return dataSet(at, "RUNNING", [
    waypoint(39.5 + step * 1e-5, -83 + step * 1e-5),
    { key: "GEN_SPEED", value: 20 + (n % 50) },
    { key: "GEN_HEADING", value: n % 360 },
  ]);
};

export type LeasedLoad = {
  url: string;
  connections: number;
  duration: number;
  vehicles: number[];
  headers: Record<string, string>;
  path: (v: number) => string;
  /** The request body, JSON; none for a GET. */
  body?: (v: number) => string;
  method?: "POST" | "GET";
};

/**
 * autocannon over a pool of vehicles: each request leases a vehicle no request is using, and
 * gives it back with its response, so every vehicle has at most one request in flight and its
 * timestamps arrive in order. (autocannon resets a connection's context before each request, so
 * the lease travels in the context from setupRequest to onResponse of the same request.)
 */
export async function leased(opts: LeasedLoad): Promise<Leased> {
  const free = [...opts.vehicles];
  let overbooked = 0;
  let sent = 0;
  let rr = 0;
  const latencies: number[] = [];
  type Ctx = { vehicle?: number; began?: number };
  const body = opts.body;
  const r = await autocannon({
    url: opts.url,
    connections: opts.connections,
    duration: opts.duration,
    timeout: 30,
    headers: body ? { ...opts.headers, "Content-Type": "application/json" } : opts.headers,
    requests: [
      {
        method: opts.method ?? "POST",
        setupRequest: (req, context: Ctx) => {
          let vehicle = free.pop();
          if (vehicle === undefined) {
            // Only after a timeout lost a lease: share a vehicle rather than stall.
            overbooked++;
            vehicle = opts.vehicles[rr++ % opts.vehicles.length]!;
          } else context.vehicle = vehicle;
          sent++;
          const path = opts.path(vehicle);
          const made = body ? { ...req, path, body: body(vehicle) } : { ...req, path };
          context.began = performance.now();
          return made;
        },
        onResponse: (_status, _body, context: Ctx) => {
          if (context.began !== undefined) latencies.push(performance.now() - context.began);
          if (context.vehicle !== undefined) free.push(context.vehicle);
          context.vehicle = undefined;
          context.began = undefined;
        },
      },
    ],
  });
  return {
    rps: r.requests.average,
    minRps: r.requests.min,
    p50: r.latency.p50,
    p99: r.latency.p99,
    ok: r["2xx"],
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    seconds: r.duration,
    overbooked,
    sent,
    latencies,
  };
}

export const dataSetPath = (v: number) => `/v1/api/vehicle/${v}/dataSet/`;

/**
 * bench:ingest (b)'s load: batches of BATCH data sets (POINTS_PER_SET points each) through
 * POST /vehicle/{id}/dataSet/, one uploader per vehicle at BATCH_CONNECTIONS connections.
 */
export const batchLoad = (opts: {
  url: string;
  headers: Record<string, string>;
  vehicles: number[];
}): Omit<LeasedLoad, "duration"> => ({
  ...opts,
  connections: BATCH_CONNECTIONS,
  path: dataSetPath,
  body: (v) => JSON.stringify(Array.from({ length: BATCH }, () => runningSet(v))),
});

/** The data points that runs of batches stored (their answered requests). */
export const batchPoints = (runs: Result[]) => runs.reduce((n, r) => n + r.ok, 0) * BATCH * POINTS_PER_SET;
/** Batches' data points per second over runs of them. */
export const pointsPerSecond = (runs: Result[]) => batchPoints(runs) / runs.reduce((n, r) => n + r.seconds, 0);

/** p50 and p99 of latencies (ms, rounded; 0 when there are none). */
export function p50p99(latencies: number[]): { p50: number; p99: number } {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (p: number) => (sorted.length ? Math.round(percentile(sorted, p)) : 0);
  return { p50: at(50), p99: at(99) };
}

/** Runs of one path as one: requests over their total time; p50 and p99 over all their requests. */
export function combine(runs: Leased[]): Result {
  const seconds = runs.reduce((n, r) => n + r.seconds, 0);
  const ok = runs.reduce((n, r) => n + r.ok, 0);
  return {
    rps: runs.reduce((n, r) => n + r.rps * r.seconds, 0) / seconds,
    minRps: Math.min(...runs.map((r) => r.minRps)),
    ...p50p99(runs.flatMap((r) => r.latencies)),
    ok,
    errors: runs.reduce((n, r) => n + r.errors, 0),
    non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
    seconds,
  };
}

/**
 * Waits until the service has finished what autocannon gave up on at the end of a run (requests
 * still in flight are processed all the same): no statement running and no new data set for
 * 0.6 s, so that row counts taken between phases belong to one phase.
 */
export async function settle(sql: postgres.Sql) {
  let last = "";
  let stable = 0;
  for (let i = 0; i < 100 && stable < 2; i++) {
    await new Promise((r) => setTimeout(r, 300));
    const [row] =
      await sql`select (select count(*) from pg_stat_activity where application_name = 'wayline' and state <> 'idle')::int as active,
      (select coalesce(max(id), 0) from data_sets)::text as top`;
    stable = row!.active === 0 && row!.top === last ? stable + 1 : 0;
    last = row!.top as string;
  }
}
