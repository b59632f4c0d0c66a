import http from "node:http";
import type { Environment } from "@/db/schema";
import { drainServer } from "@/server/platform/fleet/drain";
import { logger } from "@/server/platform/log";
import { recordRefusal, UNKNOWN_ID } from "../ingest/contacts";
import { submitRecords } from "../ingest/queue";
import { parseOsmAndRequest } from "../protocols/osmand/request";
import { logUnknownDevice } from "../unknown-ids";
import { listen, type Listener } from "./tcp";

// OsmAnd over HTTP (docs/devices.md#osmand): node:http, not Next.js, since a phone app's request
// needs none of the site (and a tenth of the cost: NOTES on a route handler against plain node).
// Every method; 200 with an empty body once the record is committed, 400 with the reason as text
// for a request refused or an id no vehicle names, 413 past the body limit, 503 when the record
// could not be stored (the app sends it again).

/** Traccar Client's requests are a few hundred bytes; a body this large is no location. */
const MAX_BODY = 64 * 1024;

type OsmAndServer = { server: http.Server; draining: { value: boolean } };

export function osmAndServer(environment: Environment, idleMs: number): OsmAndServer {
  const draining = { value: false };
  const server = http.createServer({ requestTimeout: 30_000, headersTimeout: 10_000 }, (req, res) => {
    // While the gateway drains, each answer ends its connection, so the app opens the next one elsewhere.
    if (draining.value) res.setHeader("Connection", "close");
    answer(environment, req, res).catch((error: unknown) => {
      // A fault of ours (a decoder's bug): logged, answered 500; the gateway goes on.
      logger.error({ err: error, protocol: "osmand" }, "device gateway: request failed");
      reply(res, 500, "");
    });
  });
  server.keepAliveTimeout = Math.min(idleMs, 5_000);
  server.on("clientError", (_error, socket) => {
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
    else socket.destroy();
  });
  return { server, draining };
}

export async function listenOsmAnd(input: {
  environment: Environment;
  port: number;
  host: string;
  osmand: OsmAndServer;
}): Promise<Listener> {
  const port = await listen(input.osmand.server, input.port, input.host);
  return {
    port,
    drain(withinMs) {
      input.osmand.draining.value = true;
      return drainServer(input.osmand.server, withinMs);
    },
  };
}

async function answer(environment: Environment, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const body = await readBody(req);
  if (body === "failed") return void req.socket.destroy();
  if (body === "too large") {
    res.setHeader("Connection", "close");
    return reply(res, 413, "request body larger than 64 KiB");
  }
  const parsed = parseOsmAndRequest(
    { method: req.method ?? "GET", url: req.url ?? "/", contentType: req.headers["content-type"] ?? null, body },
    new Date(),
  );
  if ("refused" in parsed) {
    // Kept as the device's last refusal, so that its vehicle's page can say why nothing arrives.
    if (parsed.deviceId)
      recordRefusal({ environment, deviceId: parsed.deviceId, protocol: "osmand", reason: parsed.refused }).catch(
        (error: unknown) => logger.warn({ err: error }, "device gateway: a refusal not recorded"),
      );
    return reply(res, 400, parsed.refused);
  }
  const deviceId = parsed.records[0]!.deviceId;
  try {
    const outcome = await submitRecords(environment, { deviceId, protocol: "osmand", records: parsed.records });
    if (outcome === "unknown") {
      logUnknownDevice({ environment, deviceId, protocol: "osmand", remote: `${req.socket.remoteAddress}` });
      return reply(res, 400, UNKNOWN_ID);
    }
    reply(res, 200, "");
  } catch (error) {
    logger.error({ err: error, protocol: "osmand", deviceId }, "device gateway: request not stored");
    reply(res, 503, "not stored, send again");
  }
}

/**
 * The whole body; "too large" past MAX_BODY (the rest is read and dropped, within the request's
 * timeout, so that the client reads the answer), "failed" when the request broke off.
 */
function readBody(req: http.IncomingMessage): Promise<Uint8Array | "too large" | "failed"> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on("end", () => resolve(size > MAX_BODY ? "too large" : Buffer.concat(chunks)));
    req.on("error", () => resolve("failed"));
  });
}

function reply(res: http.ServerResponse, status: number, text: string): void {
  if (res.headersSent || res.destroyed) return;
  const headers: http.OutgoingHttpHeaders = { "Content-Length": Buffer.byteLength(text) };
  if (text) headers["Content-Type"] = "text/plain; charset=utf-8";
  res.writeHead(status, headers);
  res.end(text);
}
