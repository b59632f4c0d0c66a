import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { newAccountBody, request } from "@/test/helpers/api";
import { Browser, hiddenFields } from "@/test/helpers/browser";
import { ConsolePartner } from "@/test/helpers/console-partner";
import { startOwnPostgres, type OwnPostgres } from "@/test/helpers/own-postgres";
import { startApp, type RunningApp } from "@/test/helpers/processes";

// One way to log an unexpected error (docs/operations.md#a-database-restart): while the database is
// away, the console's form posts and JSON routes, the driver site's form posts and the OAuth token
// endpoint each log one warn line a request ("database unavailable in …", no stack), as the API does,
// and answer with Retry-After; nothing else logs a stack either. A service of its own on a PostgreSQL cluster of the test's own,
// stopped under that traffic for a few seconds. (PostgreSQL only: the embedded database lives inside
// the service's own process.)

const OUTAGE_MS = 3000;

let pg: OwnPostgres;
let service: RunningApp;

type LogLine = { level: string; msg: string; time: string; err?: unknown; requestId?: string };

beforeAll(async () => {
  if (inject("embedded")) return;
  pg = await startOwnPostgres("outage-logs");
  service = await startApp({ name: "outage-logs", databaseUrl: pg.url, extraEnv: { SIMULATOR: "0" } });
}, 300_000);

afterAll(async () => {
  await service?.stop();
  await pg?.remove();
});

describe.skipIf(inject("embedded"))("a database outage under console, driver-site and OAuth traffic", () => {
  it("logs one warn line a request, no stack, and answers with Retry-After", async () => {
    const base = service.baseUrl;
    const partner = await new ConsolePartner(base).signUp();
    const app = await partner.createApp();
    const basic = `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64")}`;
    const token = async () =>
      request("POST", `${base}/sandbox/oauth/token`, {
        body: "grant_type=client_credentials",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: basic },
      });
    const clientToken = (await token()).body.access_token as string;
    const account = newAccountBody();
    const created = await request("POST", `${base}/sandbox/api/account/`, { token: clientToken, json: account });
    expect(created.status, created.text).toBe(200);
    const driver = new Browser(undefined, base);
    expect((await driver.signIn("sandbox", account.username, account.password)).problem).toBeNull();
    const precisionForm = hiddenFields((await driver.get("/connected-apps")).text);

    const kinds = {
      "console action": () => partner.action("create-app", { name: "During the outage", clientType: "confidential" }),
      "console JSON route": () => partner.get(`/console/apps/${app.appId}/simulator/runs/1`),
      "driver form post": () => driver.post("/connected-apps/precision", { ...precisionForm, location: "approximate" }),
      "OAuth endpoint": token,
    };
    const sent = Object.fromEntries(Object.keys(kinds).map((k) => [k, 0])) as Record<keyof typeof kinds, number>;
    const failed: string[] = [];

    const before = service.output().length;
    await pg.stopImmediately();
    const until = Date.now() + OUTAGE_MS;
    await Promise.all(
      (Object.entries(kinds) as [keyof typeof kinds, () => Promise<{ status: number; headers: Headers }>][]).map(
        async ([kind, send]) => {
          while (Date.now() < until) {
            const res = await send();
            sent[kind] += 1;
            if (res.status < 500 || !res.headers.get("retry-after")) failed.push(`${kind}: ${res.status}`);
            await new Promise((r) => setTimeout(r, 100));
          }
        },
      ),
    );
    await pg.start();
    // The last answers' lines are written by now; nothing after the restart is counted.
    await new Promise((r) => setTimeout(r, 300));
    const lines = service
      .output()
      .slice(before)
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as LogLine);

    expect(failed).toEqual([]);
    // No line of the outage carries a stack: not a request's, nor the access log's flush (one line a
    // flush, every ACCESS_LOG_FLUSH_SECONDS).
    expect(lines.filter((l) => l.err !== undefined).map((l) => l.msg)).toEqual([]);
    // A request's lines carry its id: each is one warn line.
    const ours = lines.filter((l) => l.requestId !== undefined);
    expect(ours.filter((l) => l.level !== "warn").map((l) => l.msg)).toEqual([]);
    for (const [kind, where] of [
      ["console action", "the console action create-app"],
      ["console JSON route", "a console JSON route"],
      ["driver form post", "a driver form post"],
      ["OAuth endpoint", "an OAuth endpoint"],
    ] as const) {
      const said = ours.filter((l) => l.msg === `database unavailable in ${where}`).length;
      expect(sent[kind], kind).toBeGreaterThan(0);
      expect(said, `${kind}: ${said} lines for ${sent[kind]} requests`).toBeGreaterThan(0);
      expect(said, `${kind}: ${said} lines for ${sent[kind]} requests`).toBeLessThanOrEqual(sent[kind]);
    }
  }, 120_000);
});
