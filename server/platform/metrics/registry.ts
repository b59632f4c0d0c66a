import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { replicaReadCounts } from "@/db/replica";

// The process's own metrics (prom-client), scraped at GET /metrics (server/platform/metrics/scrape.ts).
// One set per process, kept on globalThis: the server entry point (HTTP requests), Next.js's
// separately bundled route modules (ingest) and the worker (deliveries, simulator) all count
// into the same objects. Under `npm start` with several processes the primary sums every
// process's set (cluster.ts); figures read from the database at scrape time are not in here
// (database-gauges.ts), since every process would report the same.

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
// An event stream lives from seconds (a client that reconnects) to hours (a partner's listener).
const STREAM_SECONDS = [1, 10, 60, 300, 900, 3600, 4 * 3600, 24 * 3600];

function create() {
  const registry = new Registry();
  const registers = [registry];
  // Node's own figures (CPU, memory, event-loop lag, GC), prefixed: under a cluster CPU seconds
  // and memory are summed (the whole service's), event-loop lag averaged (min and max kept).
  collectDefaultMetrics({ register: registry, prefix: "wayline_" });
  return {
    registry,
    httpRequests: new Counter({
      name: "wayline_http_requests_total",
      help: "HTTP requests answered, by method, route and status.",
      labelNames: ["method", "route", "status"] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: "wayline_http_request_duration_seconds",
      help: "Time from a request's arrival to the end of its answer (for an event stream: to its first byte), by method, route and status.",
      labelNames: ["method", "route", "status"] as const,
      buckets: SECONDS,
      registers,
    }),
    streamsOpen: new Gauge({
      name: "wayline_http_streams_open",
      help: "Event streams (text/event-stream answers) open now, by route.",
      labelNames: ["route"] as const,
      registers,
    }),
    streamsRefused: new Counter({
      name: "wayline_http_streams_refused_total",
      help: "Event streams refused (429) because their holder had as many open as its cap allows, by stream and limit (token, app, user).",
      labelNames: ["stream", "limit"] as const,
      registers,
    }),
    streamsStalled: new Counter({
      name: "wayline_http_streams_stalled_total",
      help: "Event streams whose connection was ended because their writes had not drained for STREAM_STALL_SECONDS (a client that stopped reading).",
      registers,
    }),
    streamsOverflowed: new Counter({
      name: "wayline_http_streams_overflowed_total",
      help: "Event streams ended because more than 1 MiB of their data waited for a client that did not take it, by stream.",
      labelNames: ["stream"] as const,
      registers,
    }),
    streamDuration: new Histogram({
      name: "wayline_http_stream_duration_seconds",
      help: "How long an event stream stayed open, from the request's arrival to the connection's end, by route.",
      labelNames: ["route"] as const,
      buckets: STREAM_SECONDS,
      registers,
    }),
    dataSetsIngested: new Counter({
      name: "wayline_data_sets_ingested_total",
      help: "Data sets stored (duplicates of stored ones not counted), by environment.",
      labelNames: ["environment"] as const,
      registers,
    }),
    dataPointsIngested: new Counter({
      name: "wayline_data_points_ingested_total",
      help: "Data points stored with those data sets, by environment.",
      labelNames: ["environment"] as const,
      registers,
    }),
    notificationsMade: new Counter({
      name: "wayline_notifications_made_total",
      help: "Notifications subscriptions made from ingested data, by environment.",
      labelNames: ["environment"] as const,
      registers,
    }),
    deliveries: new Counter({
      name: "wayline_deliveries_total",
      help:
        "Notification delivery rows settled by a worker, by outcome: delivered, retry (scheduled again) or " +
        "deactivated (given up, the delivery turned off).",
      labelNames: ["outcome"] as const,
      registers,
    }),
    deliveryAttempts: new Counter({
      name: "wayline_delivery_attempts_total",
      help: "Delivery attempts (one HTTP POST or e-mail), by outcome as recorded in the attempt log.",
      labelNames: ["outcome"] as const,
      registers,
    }),
    deliveryDuration: new Histogram({
      name: "wayline_delivery_attempt_duration_seconds",
      help: "How long one delivery attempt took (the receiver's answer or the failure).",
      labelNames: ["outcome"] as const,
      buckets: SECONDS,
      registers,
    }),
    simulatorTurns: new Counter({
      name: "wayline_simulator_runs_driven_total",
      help: "Simulation runs driven by this process's simulator loop (one per run per turn).",
      registers,
    }),
    heavyReads: new Counter({
      name: "wayline_heavy_reads_total",
      help:
        "Heavy reads (data-set, data-point and trip lists, trip replays, delivery health) by where they ran: " +
        "replica or primary (docs/operations.md#read-replicas).",
      labelNames: ["target"] as const,
      registers,
      // Counted by db/replica.ts, which sits below the metrics: read out at each scrape.
      collect() {
        const counts = replicaReadCounts();
        this.reset();
        this.inc({ target: "replica" }, counts.replica);
        this.inc({ target: "primary" }, counts.primary);
      },
    }),
    processes: new Gauge({
      name: "wayline_processes",
      help: "Processes reporting, by role (http, worker).",
      labelNames: ["role"] as const,
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof create>;

const key = Symbol.for("wayline.metrics");
type WithMetrics = typeof globalThis & { [key]?: Metrics };

export function metrics(): Metrics {
  const g = globalThis as WithMetrics;
  return (g[key] ??= create());
}
