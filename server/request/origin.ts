// The origin a client reached the service at, for absolute links (paging actions, the OpenAPI
// server URL) when PUBLIC_URL is not set. Next.js builds request.url from the host name the
// server was started with ("localhost", or 0.0.0.0 when listening on every interface), which a
// client on another address cannot follow; the Host header is what the client itself used.
const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

export function requestOrigin(request: Request): string {
  const url = new URL(request.url);
  const host = request.headers.get("host");
  if (!host || !HOST.test(host)) return url.origin;
  try {
    return new URL(`${url.protocol}//${host}`).origin;
  } catch {
    return url.origin;
  }
}
