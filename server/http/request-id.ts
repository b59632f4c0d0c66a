import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

// Every HTTP request gets an id, answered in `X-Request-Id` and written on each log line of its
// handling (server/platform/log.ts), so a caller's report ("my request failed, id …") finds its log lines.
// A caller may choose it (a proxy or client that logs its own ids): a well-formed incoming
// X-Request-Id is kept; anything else (missing, too long, characters a log or a header should not
// carry, or the header sent twice) is replaced by a fresh UUID. docs/api.md#request-ids.

export const REQUEST_ID_HEADER = "X-Request-Id";

/** 1 to 128 of letters, digits and `- _ . : + / =` (UUIDs, ULIDs, base64 and trace ids fit). */
const WELL_FORMED = /^[A-Za-z0-9\-_.:+/=]{1,128}$/;

export function isWellFormedRequestId(value: unknown): value is string {
  return typeof value === "string" && WELL_FORMED.test(value);
}

/** The incoming header's value when it is well formed, else a new UUID. */
export function requestIdFrom(incoming: string | string[] | null | undefined): string {
  return isWellFormedRequestId(incoming) ? incoming : randomUUID();
}

/**
 * Gives a request its id before anything answers it: the request's own header is set to it (so
 * route handlers read the same id) and the answer's header too (every answer, Next.js's or the
 * server's own, carries it).
 */
export function stampRequestId(req: IncomingMessage, res: ServerResponse): string {
  const requestId = requestIdFrom(req.headers["x-request-id"]);
  req.headers["x-request-id"] = requestId;
  res.setHeader(REQUEST_ID_HEADER, requestId);
  return requestId;
}
