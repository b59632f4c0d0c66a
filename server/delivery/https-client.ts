import fs from "node:fs";
import https from "node:https";
import tls from "node:tls";
import { env } from "@/server/platform/env";
import { checkTarget, guardedLookup, parseAllowedHosts, TargetRefused, type Resolver, type TargetPolicy } from "./ssrf";

// The one way deliveries reach the network: HTTPS POSTs through an agent whose certificate
// check uses the bundled roots plus DELIVERY_CA_FILE, and whose DNS lookup is the SSRF guard.
// Every request: 10 s in all (connect, answer, body), at most 4 KB of the answer read.

const REQUEST_TIMEOUT_MS = 10_000;
export const EXCERPT_BYTES = 4096;

export type DeliveryNetwork = { policy: TargetPolicy; agent: https.Agent };

let shared: DeliveryNetwork | undefined;

/** `resolve` replaces the system DNS (tests of DNS rebinding: no real name server needed). */
export function makeNetwork({
  allowedHosts,
  extraCaPem,
  resolve,
}: {
  allowedHosts: string[];
  extraCaPem?: string;
  resolve?: Resolver;
}): DeliveryNetwork {
  const policy = { allowedHosts };
  // One secure context for every connection: given `ca` instead, Node parses the ~140 root
  // certificates again for each new connection (measured: 64 handshakes took 3 s, 400 never
  // finished within the 10 s timeout).
  const secureContext = tls.createSecureContext({
    ca: extraCaPem ? [...tls.rootCertificates, extraCaPem] : [...tls.rootCertificates],
  });
  const agent = new https.Agent({
    keepAlive: true,
    maxSockets: 256,
    secureContext,
    rejectUnauthorized: true,
    lookup: guardedLookup(policy, resolve) as unknown as https.AgentOptions["lookup"],
  });
  return { policy, agent };
}

/** The process's network, from DELIVERY_ALLOWED_HOSTS and DELIVERY_CA_FILE. */
export function deliveryNetwork(): DeliveryNetwork {
  if (!shared) {
    const config = env();
    shared = makeNetwork({
      allowedHosts: parseAllowedHosts(config.DELIVERY_ALLOWED_HOSTS),
      extraCaPem: config.DELIVERY_CA_FILE ? fs.readFileSync(config.DELIVERY_CA_FILE, "utf8") : undefined,
    });
  }
  return shared;
}

export type HttpAnswer = {
  ok: true;
  status: number;
  location: string | null;
  retryAfter: string | undefined;
  excerpt: string;
  latencyMs: number;
};
export type HttpFailure = {
  ok: false;
  /** refused: the SSRF guard said no (no traffic); the rest are network failures worth a retry. */
  kind: "refused" | "timeout" | "tls" | "connect";
  error: string;
  latencyMs: number;
};

export async function postHttps({
  url,
  headers,
  body,
  network,
  timeoutMs = REQUEST_TIMEOUT_MS,
}: {
  url: string;
  headers: Record<string, string>;
  /** Text (webhooks) or bytes (an encrypted Web Push message). */
  body: string | Buffer;
  network: DeliveryNetwork;
  timeoutMs?: number;
}): Promise<HttpAnswer | HttpFailure> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let target: URL;
  try {
    target = checkTarget(url, network.policy);
  } catch (error) {
    return { ok: false, kind: "refused", error: (error as Error).message, latencyMs: elapsed() };
  }
  const first = await requestOnce(target, headers, body, network, timeoutMs, started);
  if (first.staleSocket) {
    // A kept-alive socket the receiver closed as we reused it (its idle timeout raced our
    // request): the POST goes again at once on a new connection, Node's documented pattern
    // for `reusedSocket`, rather than as a failed attempt waiting out a retry delay. Webhooks
    // are at-least-once and carry `webhook-id`, so the rare repeat is one receivers dedupe.
    return (await requestOnce(target, headers, body, network, timeoutMs, started)).result;
  }
  return first.result;
}

function requestOnce(
  target: URL,
  headers: Record<string, string>,
  body: string | Buffer,
  network: DeliveryNetwork,
  timeoutMs: number,
  started: number,
): Promise<{ result: HttpAnswer | HttpFailure; staleSocket: boolean }> {
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolveOnce) => {
    let settled = false;
    let answered = false;
    const finish = (result: HttpAnswer | HttpFailure, staleSocket = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolveOnce({ result, staleSocket });
    };
    const req = https.request(target, {
      method: "POST",
      agent: network.agent,
      headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
    });
    const timer = setTimeout(() => {
      req.destroy();
      finish({
        ok: false,
        kind: "timeout",
        error: `no complete answer within ${timeoutMs / 1000} s`,
        latencyMs: elapsed(),
      });
    }, timeoutMs);
    req.on("error", (error: NodeJS.ErrnoException) => {
      const staleSocket = req.reusedSocket && !answered && (error.code === "ECONNRESET" || error.code === "EPIPE");
      const refused = error instanceof TargetRefused || error.code === "ESSRF";
      const tlsError = /CERT|SSL|TLS|self[- ]signed|unable to verify/i.test(`${error.code ?? ""} ${error.message}`);
      finish(
        {
          ok: false,
          kind: refused ? "refused" : tlsError ? "tls" : "connect",
          error: `${error.code ? `${error.code}: ` : ""}${error.message}`,
          latencyMs: elapsed(),
        },
        staleSocket,
      );
    });
    req.on("response", (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        const excerpt = Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString("utf8");
        const location = typeof res.headers.location === "string" ? res.headers.location : null;
        const retryAfter = typeof res.headers["retry-after"] === "string" ? res.headers["retry-after"] : undefined;
        finish({ ok: true, status: res.statusCode ?? 0, location, retryAfter, excerpt, latencyMs: elapsed() });
      };
      res.on("data", (chunk: Buffer) => {
        if (size >= EXCERPT_BYTES) return;
        chunks.push(chunk);
        size += chunk.length;
        // Enough read: drop the rest (and the connection) instead of downloading it.
        if (size >= EXCERPT_BYTES) {
          done();
          res.destroy();
        }
      });
      res.on("end", done);
      res.on("error", done);
    });
    req.end(body);
  });
}
