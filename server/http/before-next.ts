import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { driverRouteMethods } from "@/server/surfaces/driver/route-methods";
import { POST_ONLY } from "./oauth-method-not-allowed";
import { methodsAt } from "@/server/openapi/methods-at";
import { ApiError } from "@/common/http/errors";
import { errorBody } from "./error-body";
import { allowHeader } from "./method-not-allowed";
import { corsHeaders } from "./cors";
import { REQUEST_ID_HEADER } from "./request-id";

// Next.js route handlers know GET, HEAD, OPTIONS, POST, PUT, PATCH and DELETE; any other method
// (TRACE, CONNECT, PROPFIND…) ends in its 500 text/plain before our code runs. On the API, the
// driver site's JSON routes and the OAuth token and revocation endpoints the server answers it
// first: 405 in the API's error body with Allow naming the path's methods (404 on a path the API
// does not have, as for any method; docs/api.md#errors), or an RFC 6749-style body with Allow: POST
// (docs/oauth.md#token-endpoint).
const ROUTED = new Set(["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"]);
export const API_PATH = /^\/(v1|sandbox)\/api(\/|$)/;
const API_BASE = /^\/(v1|sandbox)\/api/;
export const OAUTH_ENDPOINT = /^(\/sandbox)?\/oauth\/(token|revoke)\/?$/i;
// The OAuth endpoints' paths in any letter case (docs/api.md#trailing-slashes-and-letter-case).
const OAUTH_PATH = /^(\/sandbox)?\/oauth\/(authorize|token|revoke)\/?$/i;
// The authorization page (a GET route handler) answers the same in text, as the page would.
const AUTHORIZATION_PAGE = /^(\/sandbox)?\/oauth\/authorize\/?$/i;
// The driver site's JSON routes answer in the API's error body too (server/http/with-driver.ts).
export const JSON_PATH = /^\/((v1|sandbox)\/api|me)(\/|$)/;
const ME_PATH = /^\/me(\/|$)/;

const headers = { "Content-Type": "application/json", "Cache-Control": "no-store" };
// An API path's answers carry the CORS headers, these too: a browser app shows its caller the
// error only if it may read it.
const headersAt = (path: string) => (API_PATH.test(path) ? { ...headers, ...corsHeaders } : headers);

/**
 * Answers, before Next.js, what no route of ours would: a path that is not valid percent-encoding,
 * a method no route can serve on an API or OAuth path, and an API path whose dot segments lead out
 * of the API (`/v1/api/..`: a 404 in the API's body, not the site's HTML page). An API path with
 * dot segments or empty segments that stays inside is handed on resolved (`/v1/api//vehicle/./`
 * is `/v1/api/vehicle/`), since Next.js would answer `//` with a 308 redirect, not the API's JSON.
 * Another spelling of an OAuth endpoint's path (`/OAuth/token`, `/oauth/Authorize`) is handed on in
 * lower case, the one route's (folders differing only by case would break clones on
 * case-insensitive file systems). Folded here, in the request itself, and not by a Next.js rewrite:
 * the request keeps the client's address (a rewrite went over loopback, so every such request
 * counted as 127.0.0.1 in the per-address rate limits) and is seen, and counted, once.
 * False when Next.js is to answer.
 */
export function answerBeforeNext(req: IncomingMessage, res: ServerResponse): boolean {
  const [path, query] = splitUrl(req.url ?? "/");
  if (!percentDecodable(path)) return badPercentEncoding(path, res);
  if (OAUTH_PATH.test(path)) req.url = path.toLowerCase() + query;
  const resolved = API_PATH.test(path) || ME_PATH.test(path) ? resolve(path) : path;
  if (API_PATH.test(path) && !API_PATH.test(resolved)) return pathNotFound(res, path);
  // The driver site's JSON routes are all there is under /me: any other path there (`/me/x`, or
  // `/me/vehicles/..`, which is `/me/`) is no page either, and answers as those routes do.
  if (ME_PATH.test(path) && !driverRouteMethods(resolved)) return pathNotFound(res, path);
  if (resolved !== path) req.url = resolved + query;
  if (ROUTED.has(req.method ?? "")) return false;
  // Next.js resolves dot segments and empty segments before routing: so does the match below.
  const target = resolve(path);
  if (AUTHORIZATION_PAGE.test(target)) {
    res.writeHead(405, {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "no-store",
      Allow: "GET, HEAD, OPTIONS",
    });
    res.end(`${req.method} is not supported on this page.`);
    return true;
  }
  if (OAUTH_ENDPOINT.test(target)) {
    res.writeHead(POST_ONLY.status, POST_ONLY.headers);
    res.end(JSON.stringify(POST_ONLY.body));
    return true;
  }
  const driverMethods = driverRouteMethods(target);
  if (driverMethods) return methodNotAllowed(req, res, allowHeader(driverMethods));
  if (!API_PATH.test(path)) return false;
  const allow = allowAt(resolved);
  return allow ? methodNotAllowed(req, res, allow) : pathNotFound(res, path);
}

function methodNotAllowed(req: IncomingMessage, res: ServerResponse, allow: string): true {
  res.writeHead(405, { ...headersAt(req.url ?? "/"), Allow: allow });
  res.end(
    JSON.stringify(errorBody(new ApiError("METHOD_NOT_ALLOWED", `${req.method} is not supported on this path.`))),
  );
  return true;
}

/**
 * The raw answer to a request refused before any handler runs (Node's "clientError"): what Node
 * answers by default (431 for headers over the limit, 408 for a timeout), except that a request its
 * parser refuses (HPE_*: a method it does not know such as `CONNECTX`, a malformed request line or
 * header) gets a 400 in the API's error body (RFC 6749's at the token and revocation endpoints)
 * instead of a bare one. Null for a reset connection.
 */
export function clientErrorAnswer(error: NodeJS.ErrnoException): string | null {
  if (error.code === "ECONNRESET") return null;
  if (error.code === "HPE_HEADER_OVERFLOW")
    return "HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n";
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") return "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n";
  const detail = "The request could not be parsed as HTTP/1.1.";
  // The request line, when the parser got that far, tells whose body to answer in.
  const target = String((error as { rawPacket?: Buffer }).rawPacket?.toString("latin1").split(" ")[1] ?? "/");
  const oauth = OAUTH_ENDPOINT.test(resolve(target.split("?")[0]!));
  const body = JSON.stringify(
    oauth ? { error: "invalid_request", error_description: detail } : errorBody(new ApiError("VALIDATION", detail)),
  );
  return (
    `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nCache-Control: ` +
    `no-store\r\n${REQUEST_ID_HEADER}: ${randomUUID()}\r\nContent-Length: ` +
    `${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

function splitUrl(url: string): [string, string] {
  const at = url.indexOf("?");
  return at < 0 ? [url, ""] : [url.slice(0, at), url.slice(at)];
}

/** The path with empty segments dropped and dot segments (`.`, `..`, `%2e%2e`) resolved, as a URL parser resolves them. */
const resolve = (path: string) => {
  try {
    return new URL(path.replace(/\/{2,}/g, "/"), "http://x").pathname;
  } catch {
    return path;
  }
};

/** The Allow header of a resolved API path, or null when the API has no such path. */
function allowAt(resolved: string): string | null {
  const below = resolved.replace(API_BASE, "");
  // openapi.json is no operation of its own: GET (and HEAD) only, without a CORS preflight.
  if (/^\/openapi\.json\/?$/.test(below)) return "GET, HEAD";
  const methods = methodsAt(below);
  return methods && allowHeader(methods);
}

// Next.js decodes a dynamic segment with decodeURIComponent and answers 500 text/plain when it
// throws (`%ZZ`, a lone `%`, `%C0%AE`, which is not UTF-8): such a path is a bad request, said
// before Next.js sees it, in the body the path's callers read.
function percentDecodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

function badPercentEncoding(path: string, res: ServerResponse): true {
  const detail = "The request path is not valid percent-encoded UTF-8.";
  if (JSON_PATH.test(path)) {
    res.writeHead(400, headersAt(path));
    res.end(
      JSON.stringify(
        errorBody(
          new ApiError("VALIDATION", detail, [{ fieldName: "path", errorCode: "INVALID", errorDisplay: detail }]),
        ),
      ),
    );
  } else {
    res.writeHead(400, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" });
    res.end(detail);
  }
  return true;
}

function pathNotFound(res: ServerResponse, path: string): true {
  res.writeHead(404, headersAt(path));
  res.end(JSON.stringify(errorBody(new ApiError("NOT_FOUND", "The requested path was not found."))));
  return true;
}
