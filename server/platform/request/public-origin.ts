import { env } from "@/server/platform/env";

// The origin in every absolute URL the service writes (paging links, the OpenAPI servers, the
// OAuth metadata, the docs' examples, next-auth's callback and redirect URLs): from configuration
// only, never from a request's Host or X-Forwarded-Host, which the client chooses. PUBLIC_URL
// when set; else the address the server listens on, http://HOST:PORT, with "localhost" for the
// wildcard addresses (0.0.0.0, ::), which no client can connect to as such. A service reached
// at any other name (a proxy, a LAN address) sets PUBLIC_URL (docs/operations.md#public-url).

const WILDCARD = new Set(["0.0.0.0", "::", "[::]"]);
const key = Symbol.for("wayline.listening-port");
type WithPort = typeof globalThis & { [key]?: number };

/**
 * The port the server actually listens on (PORT=0 picks a free one), told by the server entry point.
 * Kept on globalThis: Next.js's separately bundled route modules read it in the same process.
 */
export function rememberListeningPort(port: number): void {
  (globalThis as WithPort)[key] = port;
}

export function publicOrigin(): string {
  const { PUBLIC_URL, HOST, PORT } = env();
  if (PUBLIC_URL) return new URL(PUBLIC_URL).origin;
  const port = (globalThis as WithPort)[key] ?? PORT;
  const host = WILDCARD.has(HOST) ? "localhost" : HOST.includes(":") && !HOST.startsWith("[") ? `[${HOST}]` : HOST;
  return new URL(`http://${host}:${port}`).origin;
}
