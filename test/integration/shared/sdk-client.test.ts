import http from "node:http";
import v8 from "node:v8";
import vm from "node:vm";
import type net from "node:net";
import {
  clientCredentials,
  createWayline,
  exchangeCode,
  OAuthError,
  paginate,
  refreshingTokens,
  unwrap,
  WaylineError,
  type Tokens,
} from "@wayline/sdk";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPartnerApp } from "@/test/helpers/fixtures";
import { uniqueName } from "@/test/helpers/api";
import type { TestApp } from "@/test/integration/global-setup";

// The typed client (sdk/, docs/sdk.md) driving the real API over HTTP: its token helpers against the real token
// endpoint, paging by searchOffset, the contract's errors as WaylineError, and a 429's Retry-After waited out.

const url = () => inject("baseUrl");
let app: TestApp;

beforeAll(async () => {
  // An app of its own, so its lists hold exactly what this file made.
  app = await createPartnerApp(uniqueName("sdk-app"));
}, 60_000);

const sandbox = () => ({
  url: url(),
  environment: "sandbox" as const,
  clientId: app.sandbox.clientId,
  clientSecret: app.sandbox.clientSecret,
});

describe("@wayline/sdk against the service", () => {
  it("client credentials → account → code exchange → the driver's vehicles, paged by searchOffset", async () => {
    const appApi = createWayline({ url: url(), token: clientCredentials(sandbox()) });
    const username = uniqueName("sdk");
    const { account } = unwrap(
      await appApi.POST("/account/", {
        body: { firstName: "Ada", lastName: "Lovelace", username, password: "correct-horse-battery" } as never,
      }),
    );
    const code = (account as { accessToken: { code: string } }).accessToken.code;
    const tokens = await exchangeCode({ ...sandbox(), code });
    expect(tokens.refresh_token).toBeTruthy();

    const driver = createWayline({ url: url(), token: tokens.access_token });
    for (let i = 0; i < 5; i++) unwrap(await driver.POST("/vehicle/", { body: { label: `Car ${i}` } as never }));
    const labels: string[] = [];
    let pages = 0;
    for await (const vehicle of paginate(
      async (page) => {
        pages++;
        return unwrap(await driver.GET("/vehicle/", { params: { query: page } })).vehicle;
      },
      { searchLimit: 2 },
    ))
      labels.push(vehicle.label as string);
    expect(labels).toEqual(["Car 0", "Car 1", "Car 2", "Car 3", "Car 4"]);
    expect(pages).toBe(3);
  });

  it("refreshingTokens renews a refused token with the refresh token and hands the rotated pair to onRotate", async () => {
    const appApi = createWayline({ url: url(), token: clientCredentials(sandbox()) });
    const { account } = unwrap(
      await appApi.POST("/account/", {
        body: {
          firstName: "A",
          lastName: "B",
          username: uniqueName("sdk"),
          password: "correct-horse-battery",
        } as never,
      }),
    );
    const tokens = await exchangeCode({
      ...sandbox(),
      code: (account as { accessToken: { code: string } }).accessToken.code,
    });
    const rotated: Tokens[] = [];
    // A token that the service refuses (as an expired one would be), beside a live refresh token.
    const driver = createWayline({
      url: url(),
      token: refreshingTokens({
        ...sandbox(),
        tokens: { ...tokens, access_token: "not-a-live-token" },
        onRotate: (t) => void rotated.push(t),
      }),
    });
    const { account: read } = unwrap(await driver.GET("/account/"));
    expect((read as { id: number }[])[0]!.id).toBe((account as { id: number }).id);
    expect(rotated).toHaveLength(1);
    expect(rotated[0]!.refresh_token).not.toBe(tokens.refresh_token);
  });

  it("errors: a 404 and a 400 with field errors are WaylineErrors; wrong client credentials an OAuthError", async () => {
    const api = createWayline({ url: url(), token: clientCredentials(sandbox()) });
    const missing = await api
      .GET("/vehicle/{vehicleId}", { params: { path: { vehicleId: "999999999" } } })
      .then(unwrap)
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(WaylineError);
    expect(missing).toMatchObject({ httpStatus: 404, errorCode: "NOT_FOUND" });

    const invalid = await api
      .POST("/account/", { body: { firstName: "A", lastName: "B", username: "", password: "x" } as never })
      .then(unwrap)
      .catch((e: unknown) => e);
    expect(invalid).toMatchObject({ httpStatus: 400, errorCode: "VALIDATION" });
    expect((invalid as WaylineError).fieldErrors.map((f) => f.fieldName)).toContain("username");

    const wrong = await clientCredentials({ ...sandbox(), clientSecret: "wrong" })
      .token()
      .catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(OAuthError);
    expect(wrong).toMatchObject({ httpStatus: 401, error: "invalid_client" });
  });
});

describe("@wayline/sdk and Retry-After", () => {
  // A stand-in for a rate-limited service (the shared one's limits are far above what a test reaches): the
  // first answer of each pair is the contract's 429 with a Retry-After, the next a 200. The first pair's
  // Retry-After is in seconds (as the service sends it), the second's an HTTP-date (as a proxy may).
  let server: http.Server;
  const seen: number[] = [];
  let retryAfter = "1";
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push(Date.now());
      res.setHeader("content-type", "application/json");
      if (seen.length % 2 === 1) {
        res.writeHead(429, { "retry-after": retryAfter });
        res.end(
          JSON.stringify({
            error: {
              httpStatus: 429,
              errorCode: "RATE_LIMITED",
              detail: "Retry after 1 second.",
              errorDisplay: "",
              fieldErrors: [],
            },
          }),
        );
        return;
      }
      res.end(JSON.stringify({ vehicle: [], totalRecords: 0, actions: [] }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("a 429 is waited out for Retry-After seconds and sent again", async () => {
    const port = (server.address() as net.AddressInfo).port;
    const api = createWayline({ url: `http://127.0.0.1:${port}`, token: "t" });
    const { vehicle } = unwrap(await api.GET("/vehicle/"));
    expect(vehicle).toEqual([]);
    expect(seen).toHaveLength(2);
    expect(seen[1]! - seen[0]!).toBeGreaterThanOrEqual(1000);
  });

  it("a Retry-After given as an HTTP-date is waited out until that time", async () => {
    const port = (server.address() as net.AddressInfo).port;
    // Two seconds ahead, cut to the whole second an HTTP-date can say: a wait of 1–2 s.
    const until = Math.floor(Date.now() / 1000) * 1000 + 2000;
    retryAfter = new Date(until).toUTCString();
    const api = createWayline({ url: `http://127.0.0.1:${port}`, token: "t" });
    const { vehicle } = unwrap(await api.GET("/vehicle/"));
    expect(vehicle).toEqual([]);
    expect(seen).toHaveLength(4);
    expect(seen[3]!).toBeGreaterThanOrEqual(until - 1000);
    expect(seen[3]! - seen[2]!).toBeGreaterThanOrEqual(900);
  });
});

describe("@wayline/sdk and a caller's AbortSignal", () => {
  it("an open event stream the caller aborts after a garbage collection ends at once", async () => {
    // Node's fetch lets a Request's signal follow the caller's through weak references; after a
    // collection the abort used to be lost and the stream read on (nodejs/undici#4068). `gc` from V8's
    // flags, as `node --expose-gc` gives it, to make the collection happen when the test needs it.
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as () => void;
    const api = createWayline({ url: url(), token: clientCredentials(sandbox()) });
    const stop = new AbortController();
    const { data, response } = await api.GET("/eventFeed/stream", {
      headers: { accept: "text/event-stream" },
      parseAs: "stream",
      signal: stop.signal,
    });
    expect(response.status).toBe(200);
    const reader = (data as ReadableStream<Uint8Array>).getReader();
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    stop.abort();
    const ended = await Promise.race([
      (async () => {
        try {
          while (!(await reader.read()).done);
          return "ended";
        } catch (error) {
          return (error as Error).name;
        }
      })(),
      new Promise<string>((resolve) => setTimeout(() => resolve("still reading after 5 s"), 5000)),
    ]);
    expect(ended).toBe("AbortError");
  });
});
