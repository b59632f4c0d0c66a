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

export function observeRequest(req: IncomingMessage, res: ServerResponse): void {
  const start = process.hrtime.bigint();
  res.once("finish", () => {
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const labels = {
      method: METHODS.has(req.method ?? "") ? req.method! : "OTHER",
      route: routeLabel(req.url ?? "/"),
      status: String(res.statusCode),
    };
    const m = metrics();
    m.httpRequests.inc(labels);
    m.httpDuration.observe(labels, seconds);
  });
}
