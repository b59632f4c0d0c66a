import { spawn } from "node:child_process";
import { randomInt } from "node:crypto";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request, type Reply } from "@/test/helpers/api";
import { Browser } from "@/test/helpers/browser";
import { expectApiError } from "@/test/helpers/fixtures";
import { scrape, total } from "@/test/helpers/metrics-scrape";
import { startAppWithOwnDatabase, type AppWithOwnDatabase } from "@/test/helpers/app-with-own-database";
import { partnerAccount } from "@/test/helpers/partner-account";
import { runScript } from "@/test/helpers/processes";
import { openSse, type SseStream } from "@/test/helpers/sse";
import { browserHeaders, openSse as openLiveSse } from "@/test/helpers/sse-reader";
import { dataSet, waypoint } from "@/test/helpers/telemetry";

// Open streams are capped (docs/operations.md#open-streams) and a client that stops reading is cut
// off, on a service of this file's own with small caps and a short stall time: GET /eventFeed/stream
// per token and per app, the driver's live map per account, the open count on /metrics, and a raw
// socket with a tiny receive buffer that never reads while events are written.

const CAPS = {
  STREAM_MAX_PER_TOKEN: "2",
  STREAM_MAX_PER_APP: "3",
  STREAM_MAX_PER_USER: "2",
  STREAM_STALL_SECONDS: "2",
};
const ROUTE = "/sandbox/api/eventFeed/stream";

let own: AppWithOwnDatabase;
beforeAll(async () => {
  own = await startAppWithOwnDatabase("stream-caps", CAPS);
}, 240_000);
afterAll(async () => {
  await own?.stop();
});

const base = () => own.app.baseUrl;
const streamUrl = () => `${base()}${ROUTE}`;

type App = { clientId: string; clientSecret: string };

async function newApp(): Promise<App> {
  const { stdout } = await runScript(
    "app-create.ts",
    [
      "--name",
      `Streams ${Date.now()} ${randomInt(1e6)}`,
      "--redirect-uri",
      "https://partner.example/callback",
      "--json",
    ],
    own.app.env,
  );
  return (JSON.parse(stdout) as { sandbox: App }).sandbox;
}

async function clientToken(app: App): Promise<string> {
  const res = await request("POST", `${base()}/sandbox/oauth/token`, {
    body: "grant_type=client_credentials",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64")}`,
    },
  });
  expect(res.status, res.text).toBe(200);
  return res.body.access_token as string;
}

/** A refused opening as a Reply, for expectApiError. */
const replyOf = (s: SseStream): Reply => ({
  status: s.status,
  headers: s.headers,
  text: s.text,
  body: JSON.parse(s.text),
});

function expectCapRefusal(s: SseStream, holder: RegExp) {
  expect(s.status, "a stream past the cap").toBe(429);
  const error = expectApiError(replyOf(s), 429, "RATE_LIMITED");
  expect(error.detail).toMatch(holder);
  const retryAfter = Number(s.headers.get("retry-after"));
  expect(Number.isInteger(retryAfter) && retryAfter > 0, `Retry-After ${s.headers.get("retry-after")}`).toBe(true);
}

const openStreams = async () => total((await scrape(base())).samples, "wayline_http_streams_open", { route: ROUTE });

/** Polls until `check` holds (the server learns of a closed connection a moment after the client). */
async function until(what: string, check: () => Promise<boolean>, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("GET /eventFeed/stream: open streams per token and per app", () => {
  it("a token holds at most STREAM_MAX_PER_TOKEN streams: the next is 429 RATE_LIMITED with Retry-After; closing one frees its slot", async () => {
    const token = await clientToken(await newApp());
    const held = [await openSse(streamUrl(), { token }), await openSse(streamUrl(), { token })];
    for (const s of held) expect(s.status, s.text).toBe(200);

    const refused = await openSse(streamUrl(), { token });
    expectCapRefusal(refused, /access token/);
    // Opening still counted as a request: the answer says how the buckets stand.
    expect(refused.headers.get("ratelimit")).toBeTruthy();
    // The refusal opened nothing.
    await until("two streams open", async () => (await openStreams()) === 2);

    held[0]!.close();
    let again: SseStream | undefined;
    await until("a slot freed by the close", async () => {
      again = await openSse(streamUrl(), { token });
      if (again.status === 200) return true;
      expectCapRefusal(again, /access token/);
      return false;
    });
    for (const s of [held[1]!, again!]) s.close();
    await until("no stream open", async () => (await openStreams()) === 0);
  });

  it("an app holds at most STREAM_MAX_PER_APP client-credentials streams across its tokens; another app, and a user token of the same app, are not affected", async () => {
    const app = await newApp();
    const [first, second] = [await clientToken(app), await clientToken(app)];
    const held = [
      await openSse(streamUrl(), { token: first }),
      await openSse(streamUrl(), { token: first }),
      await openSse(streamUrl(), { token: second }),
    ];
    for (const s of held) expect(s.status, s.text).toBe(200);
    const third = await clientToken(app);
    expectCapRefusal(await openSse(streamUrl(), { token: third }), /this app/);

    // The gauge counts what is open; the refusals are counted by their limit.
    await until("three streams on the gauge", async () => (await openStreams()) === 3);
    const { samples } = await scrape(base());
    expect(total(samples, "wayline_http_streams_refused_total", { stream: "event-feed", limit: "app" })).toBe(1);

    const other = await openSse(streamUrl(), { token: await clientToken(await newApp()) });
    expect(other.status, other.text).toBe(200);
    // A driver's token of the app counts among the app's streams of that account, not its client's.
    const driver = await partnerAccount({ app: own.app, partnerApp: { sandbox: app } });
    const user = await openSse(streamUrl(), { token: driver.token });
    expect(user.status, user.text).toBe(200);
    for (const s of [...held, other, user]) s.close();
    await until("no stream open", async () => (await openStreams()) === 0);
  });
});

describe("the live map: open streams per driver account", () => {
  it("a driver holds at most STREAM_MAX_PER_USER live-map streams, from any browser: the next is 429 with Retry-After", async () => {
    const browser = new Browser(undefined, base());
    const { username, password } = await browser.register("sandbox");
    // The same driver signed in on another browser: the cap is the account's, not a session's.
    const laptop = new Browser(undefined, base());
    expect((await laptop.signIn("sandbox", username, password)).problem).toBeNull();
    const url = `${base()}/me/positions/stream`;
    const held = [await openLiveSse(url, browserHeaders(browser)), await openLiveSse(url, browserHeaders(laptop))];
    for (const s of held) expect(s.status, s.refusal).toBe(200);
    const refused = await openLiveSse(url, browserHeaders(browser));
    expect(refused.status, "a live-map stream past the cap").toBe(429);
    const reply = { status: refused.status, headers: refused.headers, text: refused.refusal };
    const error = expectApiError({ ...reply, body: JSON.parse(refused.refusal) }, 429, "RATE_LIMITED");
    expect(error.detail).toMatch(/driver account/);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another driver is not affected.
    const other = new Browser(undefined, base());
    await other.register("sandbox");
    const theirs = await openLiveSse(url, browserHeaders(other));
    expect(theirs.status, theirs.refusal).toBe(200);
    for (const s of [...held, theirs]) s.close();
  });
});

// A raw HTTP client in Python: a receive buffer of a few KiB set before connecting (Node has no
// setsockopt), the request, the status line; then it reads nothing more until told on stdin, and
// then reads to the end and says how the answer ended: "complete" (chunked encoding's last chunk)
// or "cut" (the connection closed or reset without it).
const RAW_CLIENT = String.raw`
import socket, sys
host, port, path, token = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
s.connect((host, port))
s.sendall(("GET %s HTTP/1.1\r\nHost: %s:%d\r\nAuthorization: Bearer %s\r\nAccept: text/event-stream\r\n\r\n" % (path, host, port, token)).encode())
head = b""
while b"\r\n\r\n" not in head:
    head += s.recv(1)
print("status " + head.split(b"\r\n")[0].decode(), flush=True)
sys.stdin.readline()
s.settimeout(60)
body = b""
try:
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        body += chunk
except (ConnectionResetError, socket.timeout) as e:
    print("error " + type(e).__name__, flush=True)
print(("complete" if body.endswith(b"\r\n0\r\n\r\n") else "cut") + " %d" % len(body), flush=True)
`;

describe("a client that never reads", () => {
  it("is cut off once its writes have not drained for STREAM_STALL_SECONDS while events are written, and its slot is freed", async () => {
    const app = await newApp();
    const token = await clientToken(app);
    const driver = await partnerAccount({ app: own.app, partnerApp: { sandbox: app } });
    const vehicle = await request("POST", `${base()}/sandbox/api/vehicle/`, {
      token: driver.token,
      json: { label: "Stall car" },
    });
    expect(vehicle.status, vehicle.text).toBe(200);
    const vehicleId = vehicle.body.vehicle.vehicleId as number;
    const sub = await request("POST", `${base()}/sandbox/api/vehicle/${vehicleId}/eventSubscription/WAYPOINT/`, {
      token: driver.token,
      json: { notificationPeriod: "CONTINUOUS", postUrl: "https://hooks.partner.example/wayline" },
    });
    expect(sub.status, sub.text).toBe(200);

    const { port } = new URL(base());
    const child = spawn("python3", ["-c", RAW_CLIENT, "127.0.0.1", port, ROUTE, token], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    const lines: string[] = [];
    const heard = new Set<() => void>();
    createInterface({ input: child.stdout! }).on("line", (line) => {
      lines.push(line);
      for (const h of heard) h();
    });
    const line = (pattern: RegExp) =>
      new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no line ${pattern}: ${lines.join(" | ")}`)), 90_000);
        const check = () => {
          const found = lines.find((l) => pattern.test(l));
          if (!found) return;
          clearTimeout(timer);
          heard.delete(check);
          resolve(found);
        };
        heard.add(check);
        check();
      });
    try {
      expect(await line(/^status /)).toBe("status HTTP/1.1 200 OK");
      // The token's other slot, held by a client that reads: the token is at its cap.
      const reading = await openSse(streamUrl(), { token });
      expect(reading.status, reading.text).toBe(200);
      expectCapRefusal(await openSse(streamUrl(), { token }), /access token/);

      // Events, 500 data sets a batch, until the server has cut the stalled stream off: its socket's
      // buffers (the kernel's grow to a few MiB on loopback) fill, its writes stop draining, and
      // STREAM_STALL_SECONDS later it ends. The reader beside it takes every event and counts the bytes.
      const stalled = async () => total((await scrape(base())).samples, "wayline_http_streams_stalled_total");
      const start = Date.now() - 86_400_000;
      let sets = 0;
      let bytes = 0;
      while ((await stalled()) === 0) {
        // Here the buffers filled after about 3 MiB (tcp_wmem's ceiling is 4 MiB): four times that is plenty.
        expect(bytes, "written without the stalled stream being cut off").toBeLessThan(16 * 1024 * 1024);
        const batch = Array.from({ length: 500 }, () =>
          dataSet(new Date(start + ++sets * 1000), "RUNNING", [waypoint(39.96 + sets / 1e6, -82.99)]),
        );
        const posted = await request("POST", `${base()}/sandbox/api/vehicle/${vehicleId}/dataSet/`, {
          token: driver.token,
          json: batch,
        });
        expect(posted.status, posted.text).toBe(200);
        const got = await reading.waitForMessages(sets, 60_000);
        bytes = got.reduce((n, m) => n + m.id.length + JSON.stringify(m.data).length, 0);
      }
      expect(await stalled()).toBe(1);
      expect(reading.isClosed()).toBe(false);
      const next = await openSse(streamUrl(), { token });
      expect(next.status, next.text).toBe(200);
      next.close();
      reading.close();

      // What the raw client finds when it reads at last: the answer cut off, not ended.
      child.stdin!.write("read\n");
      expect(await line(/^(complete|cut) /)).toMatch(/^cut \d+$/);
    } finally {
      child.kill();
    }
  });
});
