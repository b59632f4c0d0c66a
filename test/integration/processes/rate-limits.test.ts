import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccountBody, request, type Credentials, type Reply } from "@/test/helpers/api";
import { Browser } from "@/test/helpers/browser";
import { expectApiError } from "@/test/helpers/fixtures";
import { startAppWithOwnDatabase, type AppWithOwnDatabase } from "@/test/helpers/app-with-own-database";
import { runScript, spawnApp, stopProcess, waitForHealth, freePort } from "@/test/helpers/processes";
import { dataSet, waypoint } from "@/test/helpers/telemetry";

// Rate limits (docs/api.md#rate-limits, docs/operations.md#rate-limits) on services of their own
// with small limits. Every bucket refills at most one request per several minutes, so the counts
// these tests see cannot change however slowly the machine runs them.

const LIMITS = {
  TRUST_PROXY: "1",
  RATE_LIMIT_API_TOKEN: "5/1h",
  RATE_LIMIT_API_CLIENT: "8/1h",
  RATE_LIMIT_API_ADDRESS: "3/1h",
  RATE_LIMIT_OAUTH_CLIENT: "6/1h",
  RATE_LIMIT_OAUTH_ADDRESS: "3/1h",
  RATE_LIMIT_REGISTRATION_ADDRESS: "2/1h",
};

const address = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

let own: AppWithOwnDatabase;
beforeAll(async () => {
  own = await startAppWithOwnDatabase("rate-limits", LIMITS);
}, 240_000);
afterAll(async () => {
  await own?.stop();
});

const sandboxApi = () => `${own.app.baseUrl}/sandbox/api`;

async function newApp(): Promise<Credentials> {
  const { stdout } = await runScript(
    "app-create.ts",
    ["--name", `Rate ${Date.now()} ${randomInt(1e6)}`, "--redirect-uri", "https://partner.example/callback", "--json"],
    own.app.env,
  );
  return (JSON.parse(stdout) as { sandbox: Credentials }).sandbox;
}

function tokenRequest(
  base: string,
  form: Record<string, string>,
  creds: Credentials,
  from = address(),
  path = "/sandbox/oauth/token",
) {
  return request("POST", `${base}${path}`, {
    body: new URLSearchParams(form).toString(),
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Forwarded-For": from,
      Authorization: `Basic ${Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString("base64")}`,
    },
  });
}

async function clientToken(creds: Credentials, base = own.app.baseUrl): Promise<string> {
  const res = await tokenRequest(base, { grant_type: "client_credentials" }, creds);
  expect(res.status, res.text).toBe(200);
  return res.body.access_token as string;
}

const listAccounts = (token: string, base = own.app.baseUrl) =>
  request("GET", `${base}/sandbox/api/account/`, { token });

/** The structured-field list of the RateLimit header, as { policy: { r, t } }. */
function rateLimit(reply: Reply): Record<string, { r: number; t: number }> {
  const header = reply.headers.get("ratelimit");
  expect(header, `RateLimit on ${reply.status} ${reply.text}`).toBeTruthy();
  return Object.fromEntries(
    header!.split(",").map((item) => {
      const match = /^\s*"([a-z-]+)";r=(\d+);t=(\d+)\s*$/.exec(item);
      expect(match, `RateLimit item ${item}`).toBeTruthy();
      return [match![1]!, { r: Number(match![2]), t: Number(match![3]) }];
    }),
  );
}

const remainingOf = (reply: Reply) =>
  Object.fromEntries(Object.entries(rateLimit(reply)).map(([name, { r }]) => [name, r]));

describe("API: per access token and per client", () => {
  it("every answer carries RateLimit-Policy and RateLimit, counting down; over the token's limit → 429 RATE_LIMITED with Retry-After", async () => {
    const token = await clientToken(await newApp());
    const seen: Record<string, number>[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await listAccounts(token);
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get("ratelimit-policy")).toBe('"per-token";q=5;w=3600, "per-client";q=8;w=3600');
      seen.push(remainingOf(res));
    }
    // An error answer counts and says so too.
    const missing = await request("GET", `${sandboxApi()}/vehicle/999999999`, { token });
    expectApiError(missing, 404, "NOT_FOUND");
    seen.push(remainingOf(missing));
    expect(seen).toEqual([
      { "per-token": 4, "per-client": 7 },
      { "per-token": 3, "per-client": 6 },
      { "per-token": 2, "per-client": 5 },
      { "per-token": 1, "per-client": 4 },
      { "per-token": 0, "per-client": 3 },
    ]);
    // t: seconds until the bucket is full again, at most the window.
    const reset = rateLimit(missing)["per-token"]!.t;
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(3600);

    const refused = await listAccounts(token);
    const error = expectApiError(refused, 429, "RATE_LIMITED");
    expect(error.detail).toMatch(/access token/);
    const retryAfter = Number(refused.headers.get("retry-after"));
    // One request comes back every 720 s (5 per hour).
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(720);
    expect(refused.headers.get("ratelimit-policy")).toBe('"per-token";q=5;w=3600, "per-client";q=8;w=3600');
    // The refused request took nothing from the client's bucket.
    expect(remainingOf(refused)).toEqual({ "per-token": 0, "per-client": 3 });
    expect(refused.headers.get("access-control-expose-headers")).toMatch(/RateLimit-Policy/);
  });

  it("a request without a working token draws on its address's bucket, not on a token's: 401 with per-address RateLimit headers", async () => {
    const sandboxToken = await clientToken(await newApp());
    const from = address();
    const headers = { "X-Forwarded-For": from };
    const answers = [
      await request("GET", `${sandboxApi()}/account/`, { token: "not-a-real-token", headers }),
      await request("GET", `${sandboxApi()}/account/`, { headers }),
      // A sandbox token on the production API.
      await request("GET", `${own.app.baseUrl}/v1/api/account/`, { token: sandboxToken, headers }),
    ];
    answers.forEach((res, i) => {
      expectApiError(res, 401, "UNAUTHORIZED");
      expect(res.headers.get("ratelimit-policy")).toBe('"per-address";q=3;w=3600');
      expect(remainingOf(res)).toEqual({ "per-address": 2 - i });
    });
    // Nothing was taken from the sandbox token's bucket.
    expect(remainingOf(await listAccounts(sandboxToken))).toEqual({ "per-token": 4, "per-client": 7 });
  });

  it("a stream of requests without a working token from one address → 401 ×3, then 429 RATE_LIMITED; another address and working tokens are not affected", async () => {
    const from = address();
    const guess = () =>
      request("GET", `${sandboxApi()}/vehicle/`, {
        token: `guess-${randomInt(1e9)}`,
        headers: { "X-Forwarded-For": from },
      });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await guess());
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 429]);
    expectApiError(answers[3]!, 429, "RATE_LIMITED");
    expect(Number(answers[3]!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(remainingOf(answers[3]!)).toEqual({ "per-address": 0 });
    expectApiError(
      await request("GET", `${sandboxApi()}/vehicle/`, {
        token: "still-wrong",
        headers: { "X-Forwarded-For": address() },
      }),
      401,
      "UNAUTHORIZED",
    );
    // A working token from the same address draws on its own buckets.
    const token = await clientToken(await newApp());
    expect(
      (await request("GET", `${sandboxApi()}/account/`, { token, headers: { "X-Forwarded-For": from } })).status,
    ).toBe(200);
  });

  it("tokens of one client have buckets of their own and share the client's; other clients are not touched", async () => {
    const app = await newApp();
    const [first, second] = [await clientToken(app), await clientToken(app)];
    for (let i = 0; i < 5; i++) expect((await listAccounts(first)).status).toBe(200);
    expectApiError(await listAccounts(first), 429, "RATE_LIMITED");

    // The second token still has its own 5, but the client only 3 left (8 - 5).
    const statuses: number[] = [];
    let last: Reply | undefined;
    for (let i = 0; i < 4; i++) {
      last = await listAccounts(second);
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    const error = expectApiError(last!, 429, "RATE_LIMITED");
    expect(error.detail).toMatch(/client/);
    expect(remainingOf(last!)).toEqual({ "per-token": 2, "per-client": 0 });

    const other = await listAccounts(await clientToken(await newApp()));
    expect(other.status).toBe(200);
    expect(remainingOf(other)).toEqual({ "per-token": 4, "per-client": 7 });
  });

  it("a batch of data sets counts as one request", async () => {
    const app = await newApp();
    const client = await clientToken(app);
    const account = await request("POST", `${sandboxApi()}/account/`, { token: client, json: newAccountBody() });
    expect(account.status, account.text).toBe(200);
    const exchange = await tokenRequest(
      own.app.baseUrl,
      { grant_type: "authorization_code", code: account.body.account.accessToken.code },
      app,
    );
    expect(exchange.status, exchange.text).toBe(200);
    const driver = exchange.body.access_token as string;

    const vehicle = await request("POST", `${sandboxApi()}/vehicle/`, { token: driver, json: { label: "Batch car" } });
    expect(vehicle.status, vehicle.text).toBe(200);
    expect(remainingOf(vehicle)).toEqual({ "per-token": 4, "per-client": 6 });

    const t0 = Date.now() - 3_600_000;
    const batch = Array.from({ length: 20 }, (_, i) =>
      dataSet(new Date(t0 + i * 1000), i === 0 ? "ON" : "RUNNING", [waypoint(39.96 + i * 0.001, -82.99)]),
    );
    const posted = await request("POST", `${sandboxApi()}/vehicle/${vehicle.body.vehicle.vehicleId}/dataSet/`, {
      token: driver,
      json: batch,
    });
    expect(posted.status, posted.text).toBe(200);
    expect(posted.body.totalRecords).toBe(20);
    expect(remainingOf(posted)).toEqual({ "per-token": 3, "per-client": 5 });
  });

  it("two service processes on one database share the buckets", async () => {
    const port = await freePort();
    const second = spawnApp({ ...own.app.env, PORT: String(port), SIMULATOR: "0" });
    try {
      const secondBase = `http://127.0.0.1:${port}`;
      await waitForHealth(secondBase, second.child, second.output);
      const token = await clientToken(await newApp());
      const answers = [
        await listAccounts(token),
        await listAccounts(token, secondBase),
        await listAccounts(token),
        await listAccounts(token, secondBase),
        await listAccounts(token),
      ];
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
      expect(answers.map((a) => remainingOf(a)["per-token"])).toEqual([4, 3, 2, 1, 0]);
      expectApiError(await listAccounts(token, secondBase), 429, "RATE_LIMITED");
    } finally {
      await stopProcess(second.child);
    }
  }, 240_000);
});

describe("OAuth endpoints: per client and per address", () => {
  const expectSlowDown = (res: Reply) => {
    expect(res.status, res.text).toBe(429);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body).toEqual({ error: "slow_down", error_description: expect.any(String) });
    const retryAfter = Number(res.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter) && retryAfter > 0).toBe(true);
  };

  it("a stream of wrong secrets from one address → 401 invalid_client, then 429; the right secret from another address still works", async () => {
    const app = await newApp();
    const attacker = address();
    const wrong = { ...app, clientSecret: "wrong-secret" };
    const answers: number[] = [];
    for (let i = 0; i < 3; i++)
      answers.push((await tokenRequest(own.app.baseUrl, { grant_type: "client_credentials" }, wrong, attacker)).status);
    expect(answers).toEqual([401, 401, 401]);
    const refused = await tokenRequest(own.app.baseUrl, { grant_type: "client_credentials" }, wrong, attacker);
    expectSlowDown(refused);
    // Retry-After: one failure is forgiven every 1200 s (3 per hour).
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(1200);
    expect(refused.headers.get("ratelimit-policy")).toContain('"per-address";q=3;w=3600');
    // The address is refused before any secret is looked at, right ones included.
    expectSlowDown(await tokenRequest(own.app.baseUrl, { grant_type: "client_credentials" }, app, attacker));
    expect((await tokenRequest(own.app.baseUrl, { grant_type: "client_credentials" }, app, address())).status).toBe(
      200,
    );
  });

  it("the revocation endpoint counts wrong secrets per address the same way", async () => {
    const app = await newApp();
    const attacker = address();
    const wrong = { ...app, clientSecret: "wrong-secret" };
    const answers: number[] = [];
    for (let i = 0; i < 4; i++)
      answers.push(
        (await tokenRequest(own.app.baseUrl, { token: "whatever" }, wrong, attacker, "/sandbox/oauth/revoke")).status,
      );
    expect(answers).toEqual([401, 401, 401, 429]);
    expectSlowDown(await tokenRequest(own.app.baseUrl, { token: "whatever" }, wrong, attacker, "/oauth/revoke"));
  });

  it("successful requests do not count against their address; every request counts against its client", async () => {
    const app = await newApp();
    const office = address();
    const answers: number[] = [];
    // 6 per client; the address allows 3 failures but any number of successes.
    for (let i = 0; i < 7; i++)
      answers.push((await tokenRequest(own.app.baseUrl, { grant_type: "client_credentials" }, app, office)).status);
    expect(answers).toEqual([200, 200, 200, 200, 200, 200, 429]);
    // From another address too: the client's bucket is empty.
    const elsewhere = await tokenRequest(own.app.baseUrl, { grant_type: "client_credentials" }, app, address());
    expectSlowDown(elsewhere);
    expect(elsewhere.headers.get("ratelimit-policy")).toContain('"per-client";q=6;w=3600');
    // Another client from the same address is not affected.
    expect(
      (await tokenRequest(own.app.baseUrl, { grant_type: "client_credentials" }, await newApp(), office)).status,
    ).toBe(200);
  });
});

describe("driver registration: per address", () => {
  class OwnBrowser extends Browser {
    override request(
      method: string,
      url: string,
      init: { form?: Record<string, string>; headers?: Record<string, string> } = {},
    ) {
      return super.request(method, url.startsWith("/") ? own.app.baseUrl + url : url, init);
    }
  }

  it("the third registration from one address within the hour is refused; another address may register", async () => {
    const from = address();
    await new OwnBrowser(from).register("sandbox");
    await new OwnBrowser(from).register("sandbox");
    const third = await new OwnBrowser(from).credentials("registration", {
      environment: "sandbox",
      firstName: "Third",
      lastName: "Try",
      username: `third.${Date.now()}`,
      password: "correct-horse-9",
    });
    expect(third.problem).toMatchObject({ kind: "registrations_limited" });
    expect(third.problem.retryAfterSeconds).toBeGreaterThan(0);
    expect(third.problem.retryAfterSeconds).toBeLessThanOrEqual(1800);
    await new OwnBrowser(address()).register("sandbox");
  });

  it("input refused field by field does not count", async () => {
    const from = address();
    for (let i = 0; i < 3; i++) {
      const res = await new OwnBrowser(from).credentials("registration", { environment: "sandbox" });
      expect(res.problem.kind).toBe("fields");
    }
    await new OwnBrowser(from).register("sandbox");
  });
});

describe("RATE_LIMITS=off", () => {
  let off: AppWithOwnDatabase;
  beforeAll(async () => {
    off = await startAppWithOwnDatabase("rate-limits-off", {
      ...LIMITS,
      RATE_LIMITS: "off",
      RATE_LIMIT_API_TOKEN: "1/1h",
      RATE_LIMIT_OAUTH_ADDRESS: "1/1h",
    });
  }, 240_000);
  afterAll(async () => {
    await off?.stop();
  });

  it("no request is refused and no answer carries RateLimit headers", async () => {
    const base = off.app.baseUrl;
    const attacker = address();
    const wrong = { ...off.partnerApp.sandbox, clientSecret: "wrong-secret" };
    const failures: number[] = [];
    for (let i = 0; i < 4; i++)
      failures.push((await tokenRequest(base, { grant_type: "client_credentials" }, wrong, attacker)).status);
    expect(failures).toEqual([401, 401, 401, 401]);

    const token = await clientToken(off.partnerApp.sandbox, base);
    const answers = await Promise.all(Array.from({ length: 12 }, () => listAccounts(token, base)));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    for (const answer of answers) {
      expect(answer.headers.get("ratelimit")).toBeNull();
      expect(answer.headers.get("ratelimit-policy")).toBeNull();
    }
  });
});
