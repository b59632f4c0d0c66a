import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "@/test/helpers/api";
import { startAppWithOwnDatabase, type AppWithOwnDatabase } from "@/test/helpers/app-with-own-database";
import { partnerAccount } from "@/test/helpers/partner-account";

// The service's log, read as an operator reads it: its own output, captured from the process.
// A service of this file's own at LOG_LEVEL=debug, on a database of its own (an unexpected error
// is provoked by taking a table away from under the running service), then the same service
// restarted at LOG_LEVEL=warn.

type Line = {
  level: string;
  time: string;
  msg: string;
  requestId?: string;
  err?: { type: string; message: string; stack: string };
  [key: string]: unknown;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The output's JSON lines (the log); other lines are what the service prints for people. */
function logLines(output: string): Line[] {
  return output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Line);
}

let own: AppWithOwnDatabase;
let sql: postgres.Sql;
let token: string;
let base: string;

beforeAll(async () => {
  own = await startAppWithOwnDatabase("log-lines", { LOG_LEVEL: "debug" });
  base = own.app.baseUrl;
  ({ token } = await partnerAccount(own));
  const url =
    own.app.env.DATABASE_URL ??
    (JSON.parse(fs.readFileSync(path.join(own.app.dataDir, "embedded-db.json"), "utf8")) as { url: string }).url;
  sql = postgres(url, { max: 1, prepare: false, fetch_types: false, onnotice: () => {} });
}, 240_000);

afterAll(async () => {
  await sql?.end({ timeout: 5 });
  await own?.stop();
});

describe("log lines", () => {
  it("every line the service logs is one JSON object with level, ISO time and msg; info lines are written at LOG_LEVEL=debug", () => {
    const lines = logLines(own.app.output());
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(["fatal", "error", "warn", "info", "debug", "trace"]).toContain(line.level);
      expect(new Date(line.time).toISOString()).toBe(line.time);
      expect(typeof line.msg).toBe("string");
    }
    expect(lines.some((l) => l.level === "info" && l.msg === "simulator loop started")).toBe(true);
  });
});

describe("X-Request-Id", () => {
  const vehicles = () => `${base}/sandbox/api/vehicle/`;

  it("GET /vehicle/ → 200 with a generated UUID in X-Request-Id", async () => {
    const res = await request("GET", vehicles(), { token });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("x-request-id")).toMatch(UUID);
    expect(res.headers.get("access-control-expose-headers")).toMatch(/X-Request-Id/);
  });

  it("a well-formed incoming X-Request-Id is echoed; each request without one gets a new id", async () => {
    const res = await request("GET", vehicles(), { token, headers: { "X-Request-Id": "client-7f3a.9:b+c/d=" } });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("x-request-id")).toBe("client-7f3a.9:b+c/d=");
    const [a, b] = await Promise.all([request("GET", vehicles(), { token }), request("GET", vehicles(), { token })]);
    expect(a.headers.get("x-request-id")).not.toBe(b.headers.get("x-request-id"));
  });

  it.each([
    ["spaces and markup", "bad id <script>"],
    ["too long (129 characters)", "a".repeat(129)],
    ["a line-breaking escape", "abc\\ndef"],
  ])("an incoming X-Request-Id with %s is replaced by a UUID", async (_, sent) => {
    const res = await request("GET", vehicles(), { token, headers: { "X-Request-Id": sent } });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("x-request-id")).toMatch(UUID);
  });

  it("a 401 from the route wrapper carries it", async () => {
    const res = await request("GET", vehicles(), { headers: { "X-Request-Id": "req-401" } });
    expect(res.status, res.text).toBe(401);
    expect(res.headers.get("x-request-id")).toBe("req-401");
  });

  it("the server's own answers before Next.js carry it: 405 of a method, 404 of a path, 400 of bad percent-encoding", async () => {
    const notAllowed = await request("PROPFIND", vehicles(), { headers: { "X-Request-Id": "req-405" } });
    expect(notAllowed.status, notAllowed.text).toBe(405);
    expect(notAllowed.body.error.errorCode).toBe("METHOD_NOT_ALLOWED");
    expect(notAllowed.headers.get("x-request-id")).toBe("req-405");

    const notFound = await request("PROPFIND", `${base}/sandbox/api/nowhere/`, {
      headers: { "X-Request-Id": "req-404" },
    });
    expect(notFound.status, notFound.text).toBe(404);
    expect(notFound.body.error.errorCode).toBe("NOT_FOUND");
    expect(notFound.headers.get("x-request-id")).toBe("req-404");

    const badPath = await request("GET", `${base}/sandbox/api/vehicle/%ZZ`);
    expect(badPath.status, badPath.text).toBe(400);
    expect(badPath.body.error.errorCode).toBe("VALIDATION");
    expect(badPath.headers.get("x-request-id")).toMatch(UUID);
  });
});

describe("an unexpected error", () => {
  it("a database error in an API route → 500 INTERNAL; the log line has the error's stack under err and the request's id", async () => {
    // Taken away under the running service: the list's query now fails in PostgreSQL.
    await sql`alter table vehicles rename to vehicles_hidden_by_log_test`;
    const res = await request("GET", `${base}/sandbox/api/vehicle/`, {
      token,
      headers: { "X-Request-Id": "req-500-debug" },
    });
    expect(res.status, res.text).toBe(500);
    expect(res.body.error.errorCode).toBe("INTERNAL");
    expect(res.text).not.toMatch(/vehicles|relation|at /);
    expect(res.headers.get("x-request-id")).toBe("req-500-debug");

    const line = await waitForLine((l) => l.requestId === "req-500-debug" && l.level === "error");
    expect(line.msg).toBe("unexpected error in an API route");
    expect(line.err?.message).toMatch(/relation "vehicles" does not exist/);
    expect(line.err?.stack).toMatch(/relation "vehicles" does not exist/);
    expect(line.err?.stack).toMatch(/\n\s+at /);
    // Nothing else of that request was logged without its id.
    expect(
      logLines(own.app.output()).filter(
        (l) => l.level === "error" && l.msg === "unexpected error in an API route" && l.requestId === undefined,
      ),
    ).toEqual([]);
  });

  it("LOG_LEVEL=warn: info lines are gone, error lines stay", async () => {
    await own.app.restart({ LOG_LEVEL: "warn" });
    const res = await request("GET", `${base}/sandbox/api/vehicle/`, {
      token,
      headers: { "X-Request-Id": "req-500-warn" },
    });
    expect(res.status, res.text).toBe(500);
    const line = await waitForLine((l) => l.requestId === "req-500-warn");
    expect(line.level).toBe("error");
    expect(line.err?.stack).toMatch(/relation "vehicles" does not exist/);
    const lines = logLines(own.app.output());
    expect(lines.filter((l) => l.level === "info" || l.level === "debug")).toEqual([]);
    // The start banner is for people, not a log line: still printed.
    expect(own.app.output()).toMatch(/^Wayline is running at /m);
  }, 120_000);
});

/** The first log line `match` accepts, once the service has written it. */
async function waitForLine(match: (line: Line) => boolean): Promise<Line> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const line = logLines(own.app.output()).find(match);
    if (line) return line;
    if (Date.now() > deadline) throw new Error(`no such log line in:\n${own.app.output().slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
