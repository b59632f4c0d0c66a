import type { IncomingMessage, ServerResponse } from "node:http";
import { metrics } from "./registry";
import { routePattern, type RouteTable } from "./route-table";

// HTTP request metrics, recorded by the server entry point around every request (Next.js
// included). The route label is the pattern of the route that serves the path (route-table.ts:
// /sandbox/api/vehicle/[vehicleId], /docs/guides/[slug], /favicon.ico), never the path itself, so
// the number of series is bounded by the routes, whatever paths clients make up, and no id, serial
// or token in a path reaches a scrape. Static assets are one route; a path no route serves is
// "(unmatched)", whatever its status.

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const UNMATCHED = "(unmatched)";
// The API's routes live under one dynamic [env] segment; the two environments are worth telling apart.
const ENVIRONMENTS = new Set(["v1", "sandbox"]);
// proxy.ts serves every letter case of the OAuth endpoints' paths by the lower-case route.
const OAUTH_SPELLING = /^(\/sandbox)?\/oauth\//i;

let table: RouteTable = { exact: new Set(), routes: [] };

/** The routes requests are counted under (set once by the server entry point, after the build). */
export function countRoutesOf(routes: RouteTable): void {
  table = routes;
}

function routeLabel(url: string): string {
  const path = url.split("?")[0]!;
  if (path.startsWith("/_next/")) return "/_next/*";
  const pattern =
    routePattern(table, path) ?? (OAUTH_SPELLING.test(path) ? routePattern(table, path.toLowerCase()) : null);
  if (!pattern) return UNMATCHED;
  const environment = path.split("/")[1]!;
  return pattern.startsWith("/[env]/") && ENVIRONMENTS.has(environment)
    ? `/${environment}${pattern.slice("/[env]".length)}`
    : pattern;
}

/**
 * Counts a request when its answer ends, with its duration. An event stream (a text/event-stream
 * answer: GET /eventFeed/stream, the driver's live views) is counted apart (docs/operations.md#metrics):
 * its whole life is no request's latency (one listener held for an hour would be the p99 of its
 * route), so the request counter and the duration histogram take it when its headers go out, with
 * the time to that first byte (authentication, rate limits, the cursor checked), and its life is
 * measured by wayline_http_streams_open and wayline_http_stream_duration_seconds, until the
 * connection closes (the client's leaving, the server's end: "finish" alone misses the first).
 */
export function observeRequest(req: IncomingMessage, res: ServerResponse): void {
  const start = process.hrtime.bigint();
  const seconds = () => Number(process.hrtime.bigint() - start) / 1e9;
  const labelsNow = () => ({
    method: METHODS.has(req.method ?? "") ? req.method! : "OTHER",
    route: routeLabel(req.url ?? "/"),
    status: String(res.statusCode),
  });
  let stream: { route: string } | null = null;

  // Node says nothing when the headers go out: writeHead is where they do, called by res.write and
  // res.end (implicitly) and by Next.js's flushHeaders before a streamed body's first chunk. (The
  // same wrapping as markDraining's, server/platform/fleet/drain.ts.)
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
    const result = writeHead.apply(this, args);
    if (!stream && isEventStream(res, args)) {
      const labels = labelsNow();
      stream = { route: labels.route };
      const m = metrics();
      m.httpRequests.inc(labels);
      m.httpDuration.observe(labels, seconds());
      m.streamsOpen.inc({ route: labels.route });
    }
    return result;
  } as ServerResponse["writeHead"];

  res.once("finish", () => {
    if (stream) return;
    const labels = labelsNow();
    const m = metrics();
    m.httpRequests.inc(labels);
    m.httpDuration.observe(labels, seconds());
  });
  res.once("close", () => {
    if (!stream) return;
    const m = metrics();
    m.streamsOpen.dec({ route: stream.route });
    m.streamDuration.observe({ route: stream.route }, seconds());
  });
}

/** Whether the answer whose headers were just written is Server-Sent Events. */
function isEventStream(res: ServerResponse, args: unknown[]): boolean {
  // Headers passed to writeHead itself (an object, or a flat [name, value, …] array) are not
  // readable through getHeader afterwards.
  let type = res.getHeader("content-type");
  for (const arg of args) {
    if (Array.isArray(arg)) {
      for (let i = 0; i + 1 < arg.length; i += 2)
        if (String(arg[i]).toLowerCase() === "content-type") type = arg[i + 1] as string;
    } else if (arg && typeof arg === "object") {
      for (const [name, value] of Object.entries(arg))
        if (name.toLowerCase() === "content-type") type = value as string;
    }
  }
  return /^\s*text\/event-stream\b/i.test(String(type ?? ""));
}
