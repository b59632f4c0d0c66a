// A page the server answers itself, outside the app's React tree: plain HTML with inline styles and
// no script, so it renders the same in any browser, with or without JavaScript. Used where a
// route handler must answer a browser with a page (the OAuth error page, a console form's one-time
// values posted without JavaScript). Like every page, it cannot be framed (next.config.js).

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `body{margin:0;font-family:ui-sans-serif,system-ui,sans-serif;background:#f8fafc;color:#0f172a}
main{max-width:32rem;margin:4rem auto;padding:0 1.5rem}
.card{background:#fff;border:1px solid #e2e8f0;border-radius:.75rem;padding:1.5rem;box-shadow:0 1px 2px rgb(0 0 0 / .05)}
.brand{font-size:.8rem;font-weight:600;letter-spacing:.05em;text-transform:uppercase;color:#1d4ed8}
h1{font-size:1.4rem;margin:.5rem 0 1rem}p{line-height:1.5;color:#334155}a{color:#1d4ed8}
dt{font-size:.8rem;font-weight:600;color:#475569;margin-top:.75rem}dd{margin:.25rem 0 0;font-family:ui-monospace,monospace;word-break:break-all}
button{margin-top:1.25rem;min-height:2.75rem;border:0;border-radius:.5rem;background:#065f46;color:#fff;font-weight:600;padding:0 1rem;cursor:pointer}`;

/** A card with a heading; `bodyHtml` is trusted markup (escape what goes into it). */
export function plainPage(status: number, title: string, bodyHtml: string, headers: Record<string, string>): Response {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Wayline</title>
<style>
${STYLE}
</style></head>
<body><main><div class="card"><p class="brand">Wayline</p><h1>${escapeHtml(title)}</h1>${bodyHtml}</div></main></body></html>`;
  return new Response(html, { status, headers: { ...headers, "Content-Type": "text/html; charset=utf-8" } });
}
