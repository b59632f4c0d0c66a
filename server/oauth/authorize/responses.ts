// HTTP answers of the authorization endpoints. Nothing here may be cached or framed: they carry
// codes and tokens in Location, or tell a driver what went wrong.

const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

/** 302 for the GET endpoint; 303 after a POST, so the browser follows with a GET. */
export function redirectTo(location: string, status: 302 | 303): Response {
  return new Response(null, { status, headers: { ...NO_STORE, Location: location } });
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// The page shown instead of redirecting when the request cannot be trusted with a redirect
// (unknown client, unregistered redirect URI): RFC 6749 §4.1.2.1. Plain HTML with inline styles,
// no script, so it renders the same anywhere. (Like every page, it cannot be framed: next.config.js.)
export function errorPage(status: 400 | 403, title: string, message: string): Response {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · Wayline</title>
<style>
body{margin:0;font-family:ui-sans-serif,system-ui,sans-serif;background:#f8fafc;color:#0f172a}
main{max-width:32rem;margin:4rem auto;padding:0 1.5rem}
.card{background:#fff;border:1px solid #e2e8f0;border-radius:.75rem;padding:1.5rem;box-shadow:0 1px 2px rgb(0 0 0 / .05)}
.brand{font-size:.8rem;font-weight:600;letter-spacing:.05em;text-transform:uppercase;color:#1d4ed8}
h1{font-size:1.4rem;margin:.5rem 0 1rem}p{line-height:1.5;color:#334155}a{color:#1d4ed8}
</style></head>
<body><main><div class="card"><p class="brand">Wayline</p><h1>${escape(title)}</h1><p>${escape(message)}</p>
<p>You were not sent anywhere. Go back to the app you came from and try again, or contact its developer.</p>
<p><a href="/">Wayline home</a></p></div></main></body></html>`;
  return new Response(html, {
    status,
    headers: {
      ...NO_STORE,
      "Content-Type": "text/html; charset=utf-8",
    },
  });
}
