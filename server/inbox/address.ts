import { env } from "@/server/platform/env";

// Where an app's sandbox inbox lives (docs/delivery.md#sandbox-inbox): `{origin}/sandbox/inbox/{token}` on this
// service's own origin, PUBLIC_URL when set, else http://localhost:PORT (a laptop). The one URL the
// worker delivers to without the SSRF guard, so it is matched exactly: same origin, this path, a
// token's shape, nothing else (no query, fragment or credentials).

const INBOX_PATH = /^\/sandbox\/inbox\/([A-Za-z0-9_-]{32})$/;

function inboxOrigin(): string {
  const { PUBLIC_URL, PORT } = env();
  return PUBLIC_URL ? new URL(PUBLIC_URL).origin : `http://localhost:${PORT}`;
}

export function inboxUrl(token: string): string {
  return `${inboxOrigin()}/sandbox/inbox/${token}`;
}

/** The token of an inbox URL of this service, or null for any other URL. */
export function inboxToken(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.origin !== inboxOrigin() || url.username || url.password || url.search || url.hash) return null;
  return INBOX_PATH.exec(url.pathname)?.[1] ?? null;
}

/** A token as it may appear in the path (the route's params). */
export const isTokenShape = (token: string): boolean => INBOX_PATH.test(`/sandbox/inbox/${token}`);
