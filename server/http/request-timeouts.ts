import type { ServerOptions } from "node:http";

/**
 * npm start's server options that bound how long a client may take to send one request
 * (REQUEST_TIMEOUT_SECONDS, docs/operations.md#request-limits): its headers, and the whole request
 * with its body. Node checks open connections against them every `connectionsCheckingInterval`
 * (30 s by default, which would let a short timeout run twice over): here a quarter of the
 * timeout, at most 5 s. A request that runs out of time ends in the server's clientError answer
 * (408, scripts/lib/serve-http.ts). The time a handler takes to answer is not counted.
 */
export function requestTimeouts(seconds: number): ServerOptions {
  const ms = Math.round(seconds * 1000);
  return {
    headersTimeout: ms,
    requestTimeout: ms,
    connectionsCheckingInterval: Math.max(100, Math.min(5000, Math.round(ms / 4))),
  };
}
