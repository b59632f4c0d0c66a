import type { IncomingMessage, ServerResponse } from "node:http";
import { POST_ONLY } from "@/server/oauth/method-not-allowed";
import { methodsAt } from "@/server/openapi/methods-at";
import { ApiError } from "./errors";
import { allowHeader } from "./method-not-allowed";

// Next.js route handlers know GET, HEAD, OPTIONS, POST, PUT, PATCH and DELETE; any other method
// (TRACE, CONNECT, PROPFIND…) ends in its 500 text/plain before our code runs. On the API and at
// the OAuth token and revocation endpoints the server answers it first: 405 in the API's error body
// with Allow naming the path's methods (404 on a path the API does not have, as for any method;
// docs/api.md#errors), or an RFC 6749-style body with Allow: POST (docs/oauth.md#token-endpoint).
const ROUTED = new Set(["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"]);
const API_PATH = /^\/(v1|sandbox)\/api(\/|$)/;
const API_BASE = /^\/(v1|sandbox)\/api/;
const OAUTH_ENDPOINT = /^(\/sandbox)?\/oauth\/(token|revoke)\/?$/i;

const headers = { "Content-Type": "application/json", "Cache-Control": "no-store" };

/**
 * Answers, before Next.js, what no route of ours would: a method no route can serve on an API or
 * OAuth path, and an API path whose dot segments lead out of the API (`/v1/api/..`: a 404 in the
 * API's body, not the site's HTML page; dot segments that stay inside are left to Next.js, which
 * resolves them). False when the request is none of these.
 */
export function answerBeforeNext(req: IncomingMessage, res: ServerResponse): boolean {
  const path = (req.url ?? "/").split("?")[0]!;
  if (ROUTED.has(req.method ?? "")) {
    if (!API_PATH.test(path) || API_PATH.test(new URL(path, "http://x").pathname)) return false;
    return pathNotFound(res);
  }
  if (OAUTH_ENDPOINT.test(path)) {
    res.writeHead(POST_ONLY.status, POST_ONLY.headers);
    res.end(JSON.stringify(POST_ONLY.body));
    return true;
  }
  if (!API_PATH.test(path)) return false;
  const allow = allowAt(new URL(path, "http://x").pathname);
  if (!allow) return pathNotFound(res);
  res.writeHead(405, { ...headers, Allow: allow });
  res.end(JSON.stringify(new ApiError("METHOD_NOT_ALLOWED", `${req.method} is not supported on this path.`).toBody()));
  return true;
}

/** The Allow header of an API path (dot segments resolved), or null when the API has no such path. */
function allowAt(resolved: string): string | null {
  if (!API_PATH.test(resolved)) return null;
  const below = resolved.replace(API_BASE, "");
  // openapi.json is no operation of its own: GET (and HEAD) only, without a CORS preflight.
  if (/^\/openapi\.json\/?$/.test(below)) return "GET, HEAD";
  const methods = methodsAt(below);
  return methods && allowHeader(methods);
}

function pathNotFound(res: ServerResponse): true {
  res.writeHead(404, headers);
  res.end(JSON.stringify(new ApiError("NOT_FOUND", "The requested path was not found.").toBody()));
  return true;
}
