import cluster from "node:cluster";
import { randomUUID } from "node:crypto";
import { AggregatorRegistry, type MetricObjectWithValues, type MetricValue } from "prom-client";
import { metrics } from "./registry";

// Metrics over the processes of one `npm start` (node:cluster). A scrape reaches one HTTP
// process; it asks the primary, which asks every process for its metrics (as JSON, over the
// cluster's IPC channel), adds its own and sums them with prom-client's AggregatorRegistry
// (counters and histograms add up; each metric's `aggregator` says otherwise). A process that
// does not answer within COLLECT_MS is left out of that scrape rather than failing it.

type Json = MetricObjectWithValues<MetricValue<string>>[];
type Message =
  | { type: "wayline:metrics:ask"; id: string }
  | { type: "wayline:metrics:answer"; id: string; text?: string; error?: string }
  | { type: "wayline:metrics:collect"; id: string }
  | { type: "wayline:metrics:part"; id: string; json: Json };

const COLLECT_MS = 5000;
const isMessage = (m: unknown): m is Message =>
  typeof m === "object" &&
  m !== null &&
  typeof (m as { type?: unknown }).type === "string" &&
  (m as { type: string }).type.startsWith("wayline:metrics:");

/** In the primary: answers the HTTP processes' scrapes with the whole cluster's metrics. */
export function serveClusterMetrics(): void {
  const pending = new Map<string, { parts: Json[]; waiting: Set<number>; done: () => void }>();
  cluster.on("message", (worker, message: unknown) => {
    if (!isMessage(message)) return;
    if (message.type === "wayline:metrics:part") {
      const collection = pending.get(message.id);
      if (!collection) return;
      collection.parts.push(message.json);
      collection.waiting.delete(worker.id);
      if (collection.waiting.size === 0) collection.done();
    } else if (message.type === "wayline:metrics:ask") {
      void aggregate(pending).then(
        (text) => worker.isConnected() && worker.send({ type: "wayline:metrics:answer", id: message.id, text }),
        (error: unknown) =>
          worker.isConnected() && worker.send({ type: "wayline:metrics:answer", id: message.id, error: String(error) }),
      );
    }
  });
}

async function aggregate(
  pending: Map<string, { parts: Json[]; waiting: Set<number>; done: () => void }>,
): Promise<string> {
  const id = randomUUID();
  const workers = Object.values(cluster.workers ?? {}).filter((w) => w?.isConnected());
  const parts: Json[] = [(await metrics().registry.getMetricsAsJSON()) as Json];
  await new Promise<void>((resolve) => {
    const waiting = new Set(workers.map((w) => w!.id));
    const timer = setTimeout(resolve, COLLECT_MS);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    pending.set(id, { parts, waiting, done });
    if (waiting.size === 0) done();
    for (const w of workers) w!.send({ type: "wayline:metrics:collect", id });
  });
  pending.delete(id);
  return AggregatorRegistry.aggregate(parts).metrics();
}

const asked = new Map<string, { resolve: (text: string) => void; reject: (error: Error) => void }>();

/** In an HTTP process of a cluster: hands the primary this process's metrics when it collects. */
export function answerClusterCollections(): void {
  process.on("message", (message: unknown) => {
    if (!isMessage(message)) return;
    if (message.type === "wayline:metrics:collect") {
      void metrics()
        .registry.getMetricsAsJSON()
        .then((json) => process.send?.({ type: "wayline:metrics:part", id: message.id, json }));
    } else if (message.type === "wayline:metrics:answer") {
      const waiter = asked.get(message.id);
      asked.delete(message.id);
      if (message.text !== undefined) waiter?.resolve(message.text);
      else waiter?.reject(new Error(message.error ?? "no metrics"));
    }
  });
}

/** In an HTTP process of a cluster: the whole cluster's metrics, from the primary. */
export function clusterMetrics(): Promise<string> {
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      asked.delete(id);
      reject(new Error("the primary did not answer with the metrics"));
    }, COLLECT_MS * 2);
    asked.set(id, {
      resolve: (text) => (clearTimeout(timer), resolve(text)),
      reject: (error) => (clearTimeout(timer), reject(error)),
    });
    process.send!({ type: "wayline:metrics:ask", id });
  });
}
