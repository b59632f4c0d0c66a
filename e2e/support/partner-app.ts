import http from "node:http";
import type { AddressInfo } from "node:net";
import { runScript, serviceEnv } from "../../test/helpers/processes";

export type Credentials = { clientId: string; clientSecret: string };

/**
 * A partner app's redirect endpoint: a real HTTP server on 127.0.0.1 that records every callback
 * the browser is sent to. Started and closed by the spec that uses it.
 */
export async function startCallbackServer() {
  const received: URL[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
    // Browsers also ask for /favicon.ico: only callbacks count.
    if (url.pathname !== "/callback") return void res.writeHead(404).end();
    received.push(url);
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(
      `<!doctype html><title>Partner app</title><h1>Partner app received the ` +
        `callback</h1><p>${url.searchParams.has("code") ? "A code arrived." : (url.searchParams.get("error") ?? "")}</p>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    redirectUri: `http://127.0.0.1:${port}/callback`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A partner app registered with the operator CLI against the service under test. */
export async function createPartnerApp(
  name: string,
  redirectUri: string,
): Promise<{ sandbox: Credentials; production: Credentials }> {
  const env = serviceEnv({
    port: 0,
    dataDir: process.env.E2E_DATA_DIR!,
    databaseUrl: process.env.DATABASE_URL || undefined,
  });
  const { stdout } = await runScript(
    "app-create.ts",
    ["--name", name, "--owner", "E2E Partners Ltd.", "--redirect-uri", redirectUri, "--json"],
    env,
  );
  return JSON.parse(stdout);
}
