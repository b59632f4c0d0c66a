import type { IncomingMessage } from "node:http";
import { env } from "@/server/platform/env";

/** Set by the HTTP front (scripts/lib/serve-http.ts) on every request, replacing whatever a client sent under that name. */
export const CLIENT_ADDRESS_HEADER = "x-wayline-client-address";

// Route handlers never see the socket, so the server entry point stamps the client's address on
// the request for them (failed sign-ins are counted per address). Behind a reverse proxy
// (TRUST_PROXY=1) the socket is the proxy: the address is the last X-Forwarded-For entry, the
// one the proxy itself appended; earlier entries are whatever the client claimed.
export function stampClientAddress(req: IncomingMessage): void {
  let address = req.socket.remoteAddress ?? "unknown";
  if (env().TRUST_PROXY) {
    const forwarded = req.headers["x-forwarded-for"];
    const last = (Array.isArray(forwarded) ? forwarded.join(",") : (forwarded ?? "")).split(",").pop()?.trim();
    if (last) address = last;
  }
  req.headers[CLIENT_ADDRESS_HEADER] = address.replace(/^::ffff:/, "");
}

export function clientAddress(headers: Headers | Record<string, unknown>): string {
  const value = headers instanceof Headers ? headers.get(CLIENT_ADDRESS_HEADER) : headers[CLIENT_ADDRESS_HEADER];
  return typeof value === "string" && value ? value.slice(0, 64) : "unknown";
}
