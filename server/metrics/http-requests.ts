import type { IncomingMessage, ServerResponse } from "node:http";
import { metrics } from "./registry";

// HTTP request metrics, recorded by the server entry point around every request (Next.js
// included). The route label is the path with its variable parts replaced, so that the number
// of series stays bounded: a segment holding a digit or longer than 24 characters (ids, serial
// numbers, VINs, tokens) becomes ":id", static assets are one route, and a 404 is "(unmatched)"
// (a scanner's made-up paths must not each make a series).

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

function routeLabel(url: string, status: number): string {
  if (status === 404) return "(unmatched)";
  const path = url.split("?")[0]!;
  if (path.startsWith("/_next/")) return "/_next/*";
  const segments = path.split("/").map((s) => (/\d/.test(s) || s.length > 24 ? ":id" : s));
  const route = segments.join("/").replace(/\/+$/, "") || "/";
  return route.length > 120 ? "(long)" : route;
}

export function observeRequest(req: IncomingMessage, res: ServerResponse): void {
  const start = process.hrtime.bigint();
  res.once("finish", () => {
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const labels = { method: METHODS.has(req.method ?? "") ? req.method! : "OTHER", route: routeLabel(req.url ?? "/", res.statusCode), status: String(res.statusCode) };
    const m = metrics();
    m.httpRequests.inc(labels);
    m.httpDuration.observe(labels, seconds);
  });
}
