import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scrape, total } from "@/test/helpers/metrics-scrape";
import { startAppWithOwnDatabase, type AppWithOwnDatabase } from "@/test/helpers/app-with-own-database";
import { runScript } from "@/test/helpers/processes";

// The OAuth endpoints' rate limits as a service without a reverse proxy sees them (TRUST_PROXY off,
// the default): the client's address is the socket's. The suite's shared service trusts
// X-Forwarded-For, so this file runs a service of its own and tells clients apart the way the
// kernel does: each test client connects from an address of its own in 127.0.0.0/8 (Linux routes
// the whole block to loopback). Small limits that refill once in minutes, so counts cannot drift.
// Any spelling of the OAuth paths keeps the client's own address and is counted once; a request
// whose client did not authenticate never spends that client's budget, only its address's.

const LIMITS = { TRUST_PROXY: "0", RATE_LIMIT_OAUTH_CLIENT: "6/1h", RATE_LIMIT_OAUTH_ADDRESS: "3/1h" };

let own: AppWithOwnDatabase;
beforeAll(async () => {
  own = await startAppWithOwnDatabase("oauth-own-address", LIMITS);
}, 240_000);
afterAll(async () => {
  await own?.stop();
});

type Credentials = { clientId: string; clientSecret: string };
type Answer = { status: number; headers: http.IncomingHttpHeaders; text: string; body: any };

let nextHost = 10;
/** A client address of its own, 127.0.0.10 and up. */
const newAddress = () => `127.0.0.${nextHost++}`;

/** One request to the service from `from` (the socket's local address). */
function send(
  from: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  const url = new URL(own.app.baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        localAddress: from,
        method,
        path,
        headers: { ...headers, ...(body ? { "Content-Length": String(Buffer.byteLength(body)) } : {}) },
        agent: false,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => {
          let parsed: unknown;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            parsed = undefined;
          }
          resolve({ status: res.statusCode!, headers: res.headers, text, body: parsed });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

function oauthPost(from: string, path: string, form: Record<string, string>, creds?: Credentials) {
  const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" };
  if (creds)
    headers.Authorization = `Basic ${Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString("base64")}`;
  return send(from, "POST", path, headers, new URLSearchParams(form).toString());
}

async function newApp(): Promise<Credentials> {
  const { stdout } = await runScript(
    "app-create.ts",
    ["--name", `Own address ${Date.now()} ${nextHost}`, "--redirect-uri", "https://partner.example/callback", "--json"],
    own.app.env,
  );
  return (JSON.parse(stdout) as { sandbox: Credentials }).sandbox;
}

const statuses = async (answers: Promise<Answer>[]) => (await Promise.all(answers)).map((a) => a.status);

async function inSequence(n: number, one: () => Promise<Answer>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await one()).status);
  return out;
}

describe("any spelling of the OAuth paths: the client's own address, counted once", () => {
  it("the test clients really connect from addresses of their own (the service sees 127.0.0.x, not only 127.0.0.1)", async () => {
    // Three wrong secrets from one address on the lower-case path empty that address's bucket; another address is untouched.
    const app = await newApp();
    const attacker = newAddress();
    const wrong = { ...app, clientSecret: "wrong-secret" };
    expect(
      await inSequence(4, () =>
        oauthPost(attacker, "/sandbox/oauth/token", { grant_type: "client_credentials" }, wrong),
      ),
    ).toEqual([401, 401, 401, 429]);
    expect(
      (await oauthPost(newAddress(), "/sandbox/oauth/token", { grant_type: "client_credentials" }, app)).status,
    ).toBe(200);
  });

  it("wrong secrets on /OAuth/token from one address do not slow a client on another address down, on any spelling", async () => {
    const app = await newApp();
    const attacker = newAddress();
    const wrong = { ...app, clientSecret: "wrong-secret" };
    expect(
      await inSequence(3, () => oauthPost(attacker, "/OAuth/token", { grant_type: "client_credentials" }, wrong)),
    ).toEqual([401, 401, 401]);
    // The attacker's own address is the one that is out of tries, whatever the spelling…
    expect((await oauthPost(attacker, "/OAuth/token", { grant_type: "client_credentials" }, app)).status).toBe(429);
    expect((await oauthPost(attacker, "/oauth/token", { grant_type: "client_credentials" }, app)).status).toBe(429);
    // …and a client elsewhere is not, on the mixed-case path too, with a wrong secret as with the right one.
    const victim = newAddress();
    expect(
      (await oauthPost(victim, "/OAuth/token", { grant_type: "client_credentials" }, { ...app, clientSecret: "typo" }))
        .status,
    ).toBe(401);
    expect((await oauthPost(victim, "/OAuth/Token", { grant_type: "client_credentials" }, app)).status).toBe(200);
    expect((await oauthPost(victim, "/Sandbox/OAUTH/REVOKE", { token: "whatever" }, app)).status).toBe(200);
  });

  it("/oauth/Token, /OAUTH/TOKEN/, /oauth/Revoke and /oauth/Authorize are the endpoints, not 404 pages", async () => {
    const app = await newApp();
    const from = newAddress();
    for (const path of ["/oauth/Token", "/OAUTH/TOKEN/", "/sandbox/oauth/TOKEN", "/SANDBOX/oauth/token"]) {
      const res = await oauthPost(from, path, { grant_type: "client_credentials" }, app);
      expect(res.status, `${path}: ${res.text.slice(0, 200)}`).toBe(200);
      expect(res.body).toMatchObject({ access_token: expect.any(String), token_type: "bearer" });
    }
    expect((await oauthPost(from, "/oauth/Revoke", { token: "whatever" }, app)).status).toBe(200);
    const query = new URLSearchParams({
      client_id: app.clientId,
      redirect_uri: "https://partner.example/callback",
      response_type: "code",
      state: "s",
    });
    for (const path of ["/oauth/Authorize", "/sandbox/oauth/AUTHORIZE", "/OAuth/authorize"]) {
      const res = await send(from, "GET", `${path}?${query}`);
      // Not signed in: on to the page where the driver signs in.
      expect(res.status, `${path}: ${res.text.slice(0, 200)}`).toBe(302);
      expect(res.headers.location).toMatch(/^\/oauth\/authorize\/continue\?/);
    }
  });

  it("a request on a mixed-case path is counted once in the metrics, under the endpoint's route", async () => {
    const app = await newApp();
    const before = (await scrape(own.app.baseUrl)).samples;
    expect((await oauthPost(newAddress(), "/OAuth/Token", { grant_type: "client_credentials" }, app)).status).toBe(200);
    const after = (await scrape(own.app.baseUrl)).samples;
    const counted = (samples: typeof before, labels: Record<string, string> = {}) =>
      total(samples, "wayline_http_requests_total", { method: "POST", ...labels });
    expect(counted(after) - counted(before)).toBe(1);
    expect(
      counted(after, { route: "/oauth/token", status: "200" }) -
        counted(before, { route: "/oauth/token", status: "200" }),
    ).toBe(1);
  });
});

describe("a request whose client did not authenticate spends its address's budget, never the client's", () => {
  it("unsupported grants, missing and wrong secrets naming a client, from many addresses, leave the client's whole budget", async () => {
    const victim = await newApp();
    const attempts: Record<string, string>[] = [
      { grant_type: "bogus_grant", client_id: victim.clientId },
      { grant_type: "client_credentials", client_id: victim.clientId },
      { grant_type: "client_credentials", client_id: victim.clientId, client_secret: "wrong-secret" },
      { grant_type: "refresh_token", client_id: victim.clientId, refresh_token: "made-up" },
    ];
    // 12 requests naming the client (its budget is 6), each address until its own budget (3) is gone.
    for (const form of attempts) {
      const from = newAddress();
      const answers = await inSequence(4, () => oauthPost(from, "/sandbox/oauth/token", form));
      expect(
        answers.slice(0, 3).every((s) => s === 400 || s === 401),
        `${JSON.stringify(form)}: ${answers}`,
      ).toBe(true);
      expect(answers[3], `${JSON.stringify(form)}: the address's budget is spent`).toBe(429);
    }
    const revocations: Record<string, string>[] = [
      { token: "whatever", client_id: victim.clientId },
      { token: "whatever", client_id: victim.clientId, client_secret: "wrong-secret" },
    ];
    for (const form of revocations) {
      const from = newAddress();
      expect(await inSequence(4, () => oauthPost(from, "/sandbox/oauth/revoke", form))).toEqual([401, 401, 401, 429]);
    }
    // The client itself, from elsewhere: its six, then its own limit.
    const office = newAddress();
    expect(
      await inSequence(7, () =>
        oauthPost(office, "/sandbox/oauth/token", { grant_type: "client_credentials" }, victim),
      ),
    ).toEqual([200, 200, 200, 200, 200, 200, 429]);
  });

  it("an authenticated client's requests spend the client's budget and give its address's back; its revocations count too", async () => {
    const app = await newApp();
    const office = newAddress();
    expect(await statuses([oauthPost(office, "/sandbox/oauth/revoke", { token: "whatever" }, app)])).toEqual([200]);
    // 5 left for the client; the address (3) is not spent by successes.
    expect(
      await inSequence(6, () => oauthPost(office, "/sandbox/oauth/token", { grant_type: "client_credentials" }, app)),
    ).toEqual([200, 200, 200, 200, 200, 429]);
    // An authenticated request refused by its grant (400) is the client's too.
    const other = await newApp();
    const answers = await inSequence(7, () =>
      oauthPost(office, "/sandbox/oauth/token", { grant_type: "authorization_code", code: "made-up" }, other),
    );
    expect(answers).toEqual([400, 400, 400, 400, 400, 400, 429]);
  });
});
