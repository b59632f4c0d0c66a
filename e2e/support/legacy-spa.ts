import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A single-page app written the way the original service's sample app was: one page at
 * `http://127.0.0.1:port/`, a "Sign in" link to the implicit grant with the redirect URI
 * `http://127.0.0.1:port/#/authorized`, and, back there, `access_token` read from
 * `location.hash` after `#/authorized?`, kept in sessionStorage and used against
 * `GET /sandbox/api/account/` from the page itself (cross-origin, as such apps call the API).
 * A real HTTP server on loopback that records the paths it is asked for: a fragment never
 * reaches it. Started and closed by the spec that uses it; the client id is set once the app
 * is registered (its redirect URI needs the port first).
 */
export async function startLegacySpa(waylineBaseUrl: string) {
  const requests: string[] = [];
  const config = { clientId: "" };
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? "/");
    if (req.url !== "/") return void res.writeHead(404).end();
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
    res.end(page(waylineBaseUrl, config.clientId));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    redirectUri: `http://127.0.0.1:${port}/#/authorized`,
    requests,
    useClientId: (clientId: string) => void (config.clientId = clientId),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function page(waylineBaseUrl: string, clientId: string): string {
  // Inline script, DOM built with textContent: nothing from the fragment is parsed as HTML.
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Legacy car app</title></head>
<body><h1>Legacy car app</h1><main id="view"></main>
<script>
const WAYLINE = ${JSON.stringify(waylineBaseUrl)};
const CLIENT_ID = ${JSON.stringify(clientId)};
const REDIRECT_URI = location.origin + "/#/authorized";
const PREFIX = "#/authorized?";

function show(tag, text) {
  const el = document.createElement(tag);
  el.textContent = text;
  document.getElementById("view").replaceChildren(el);
  return el;
}

function signInLink() {
  const state = crypto.randomUUID();
  sessionStorage.setItem("wayline.state", state);
  const query = new URLSearchParams({ client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, response_type: "token", state });
  show("a", "Sign in with Wayline").href = WAYLINE + "/sandbox/OAuth/authorize?" + query;
}

async function authorized() {
  const params = new URLSearchParams(location.hash.slice(PREFIX.length));
  if (params.get("state") !== sessionStorage.getItem("wayline.state")) return show("p", "The answer does not belong to this sign-in.");
  if (params.get("error")) return show("p", "Wayline said: " + params.get("error"));
  const token = params.get("access_token");
  sessionStorage.setItem("wayline.token", token);
  show("p", "Signing in…");
  const res = await fetch(WAYLINE + "/sandbox/api/account/", { headers: { Authorization: "Bearer " + token } });
  if (!res.ok) return show("p", "The API answered " + res.status);
  const body = await res.json();
  show("h2", "Signed in as " + body.account[0].username);
}

if (location.hash.startsWith(PREFIX)) authorized();
else signInLink();
</script></body></html>`;
}
