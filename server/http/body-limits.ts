import { AsyncResource } from "node:async_hooks";
import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError } from "@/common/http/errors";
import { API_PATH, OAUTH_ENDPOINT } from "./before-next";
import { MAX_BODY_BYTES } from "./body";
import { corsHeaders } from "./cors";
import { errorBody } from "./error-body";

// The most a request body may hold, enforced by npm start's server before Next.js reads a byte
// of it (docs/operations.md#request-limits): Next.js's route handlers, server actions and
// next-auth read whole bodies of any size. The API (and the driver site's JSON routes and the
// sandbox inbox, which answer in its error body) takes the contract's 1 MiB; everything else
// (the OAuth endpoints, sign-in, the console's and the driver site's forms, the consent post)
// is a form of a few fields and takes 64 KiB.
const FORM_MAX_BODY_BYTES = 64 * 1024;

// After a 413 the connection is closed, but not at once: a client still sending would meet a reset
// and could lose the answer before reading it. The rest of the body is read and dropped (never
// kept) for at most this long or this much, as web servers' "lingering close" does, then the
// connection is cut.
const LINGER_MS = 2000;
const LINGER_BYTES = 8 * 1024 * 1024;

const JSON_BODY_PATH = /^\/((v1|sandbox)\/api|me|sandbox\/inbox)(\/|$)/;

type Limit = { bytes: number; refuse(res: ServerResponse): void };
type Pushable = IncomingMessage & { push(chunk: Buffer | null): boolean };

/**
 * Calls `next` once the request may go on to Next.js; otherwise answers 413 itself. A body whose
 * Content-Length is over the path's limit is refused before any of it is read; a chunked body is
 * counted as it arrives and held back (at most the limit) until it is whole, so Next.js only ever
 * sees a body within the limit and never starts on one it would have to abandon. (Node's parser
 * delivers exactly Content-Length bytes, so a declared length cannot lie.)
 */
export function withinBodyLimit(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  const limit = limitFor(pathOf(req.url ?? "/"));
  const length = req.headers["content-length"];
  if (length !== undefined) return Number(length) > limit.bytes ? refuse(req, res, limit) : next();
  if (req.headers["transfer-encoding"] === undefined) return next();
  holdChunkedBody(req, res, limit, AsyncResource.bind(next));
}

/**
 * Counts a chunked body where Node's parser hands it to the request stream (`push`): the chunks
 * are kept aside until the last one, then given to the stream as they came and `next` runs; past
 * the limit they are dropped, the parser is told to stop reading (`push` returning false pauses
 * the socket) and the request is answered 413.
 */
function holdChunkedBody(req: IncomingMessage, res: ServerResponse, limit: Limit, next: () => void): void {
  const held: Buffer[] = [];
  let size = 0;
  const stream = req as Pushable;
  stream.push = (chunk: Buffer | null) => {
    if (chunk === null) {
      delete (stream as Partial<typeof stream>).push;
      for (const c of held) stream.push(c);
      stream.push(null);
      next();
      return false;
    }
    size += chunk.byteLength;
    if (size <= limit.bytes) return held.push(chunk) > 0;
    held.length = 0;
    refuse(req, res, limit);
    return true;
  };
}

/**
 * 413 with Connection: close. What still arrives of the body is dropped as the parser hands it
 * over (never buffered); once the answer is written the connection is half-closed and cut after
 * LINGER_MS or LINGER_BYTES more, whichever comes first.
 */
function refuse(req: IncomingMessage, res: ServerResponse, limit: Limit): void {
  const socket = req.socket as IncomingMessage["socket"] & { destroySoon?: () => void };
  let dropped = 0;
  (req as Pushable).push = (chunk: Buffer | null) => {
    dropped += chunk?.byteLength ?? 0;
    if (dropped > LINGER_BYTES) socket.destroy();
    return true;
  };
  // Node calls destroySoon once a Connection: close answer is written (it would cut at once).
  socket.destroySoon = () => {
    socket.end();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
  res.setHeader("Connection", "close");
  res.setHeader("Cache-Control", "no-store");
  limit.refuse(res);
}

function limitFor(path: string): Limit {
  if (JSON_BODY_PATH.test(path)) {
    return {
      bytes: MAX_BODY_BYTES,
      refuse: (res) =>
        json(
          res,
          errorBody(new ApiError("TOO_LARGE", `The request body is larger than ${MAX_BODY_BYTES} bytes.`)),
          // The API's other answers carry the CORS headers: without them a browser app cannot read this one.
          API_PATH.test(path) ? corsHeaders : {},
        ),
    };
  }
  const detail = `The request body is larger than ${FORM_MAX_BODY_BYTES} bytes.`;
  // RFC 6749 knows no such status; the body is its invalid_request (docs/oauth.md#token-endpoint).
  if (OAUTH_ENDPOINT.test(path))
    return {
      bytes: FORM_MAX_BODY_BYTES,
      refuse: (res) => json(res, { error: "invalid_request", error_description: detail }),
    };
  return {
    bytes: FORM_MAX_BODY_BYTES,
    refuse: (res) => {
      res.writeHead(413, { "Content-Type": "text/plain; charset=utf-8" });
      res.end(detail);
    },
  };
}

function json(res: ServerResponse, body: unknown, extra: Record<string, string> = {}): void {
  res.writeHead(413, { ...extra, "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

/** The path with empty and dot segments resolved, as Next.js routes it (`/sandbox/./oauth//token`). */
function pathOf(url: string): string {
  const path = url.split("?")[0]!;
  try {
    return new URL(path.replace(/\/{2,}/g, "/"), "http://x").pathname;
  } catch {
    return path;
  }
}
