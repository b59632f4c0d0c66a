// The origin the browser itself addressed (its Host header), for one purpose only: telling a
// same-origin form post from a cross-site one (server/http/cross-site.ts), where the browser's Origin
// is compared with the Host that same browser sent. Absolute URLs never come from here: they use
// the configured origin (public-origin.ts). Next.js builds request.url from the host name the
// server was started with, which is not what a browser on another address sent.
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
