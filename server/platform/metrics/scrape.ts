import cluster from "node:cluster";
import type { IncomingMessage, ServerResponse } from "node:http";
import { logger } from "@/server/platform/log";
import { metricsAllowed } from "./access";
import { clusterMetrics } from "./cluster";
import { databaseMetrics } from "./database-gauges";
import { metrics } from "./registry";

// GET /metrics, answered by the server entry point before Next.js (it is not part of the API
// and needs the request's socket-level address): Prometheus text format, this process's
// metrics (or, in a cluster, every process's summed), then the figures read from the database.

export const METRICS_PATH = "/metrics";

export async function answerMetrics(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const headers = { "Cache-Control": "no-store" };
  if (!metricsAllowed(req)) {
    res.writeHead(401, {
      ...headers,
      "Content-Type": "text/plain; charset=utf-8",
      "WWW-Authenticate": 'Bearer realm="metrics"',
    });
    res.end("Metrics are served to loopback clients, or with Authorization: Bearer <METRICS_TOKEN>.\n");
    return;
  }
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, { ...headers, Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8" });
    res.end("GET only.\n");
    return;
  }
  try {
    const own = cluster.isWorker ? await clusterMetrics() : await metrics().registry.metrics();
    const text = `${own.trimEnd()}\n\n${await databaseMetrics()}`;
    res.writeHead(200, { ...headers, "Content-Type": metrics().registry.contentType });
    res.end(req.method === "HEAD" ? undefined : text);
  } catch (error) {
    logger.error({ err: error }, "metrics scrape failed");
    res.writeHead(503, { ...headers, "Content-Type": "text/plain; charset=utf-8" });
    res.end("Metrics are unavailable for the moment.\n");
  }
}
