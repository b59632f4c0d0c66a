import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freshDatabase } from "@/test/helpers/fresh-database";
import { startApp, type RunningApp } from "@/test/helpers/processes";
import { slowSender } from "@/test/helpers/streamed-body";

// Slow senders (slowloris) cannot hold a connection open: a request's headers, and the whole
// request with its body, must arrive within REQUEST_TIMEOUT_SECONDS (30 by default;
// docs/operations.md#request-limits). A service of its own with the timeout at 1 s, so the test
// is quick; a client dripping a byte every 200 ms would otherwise keep the connection for ever.

let service: RunningApp;
let database: Awaited<ReturnType<typeof freshDatabase>> | null = null;

beforeAll(async () => {
  database = inject("embedded") ? null : await freshDatabase(inject("databaseUrl"), "request_timeout");
  service = await startApp({
    name: "request-timeout",
    databaseUrl: database?.url,
    extraEnv: { REQUEST_TIMEOUT_SECONDS: "1" },
  });
}, 240_000);

afterAll(async () => {
  await service?.stop();
  await database?.drop();
});

describe("REQUEST_TIMEOUT_SECONDS=1", () => {
  it("headers sent a line every 200 ms → 408 and the connection closed, within a few seconds", async () => {
    let n = 0;
    const res = await slowSender(
      service.baseUrl,
      "GET /api/health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n",
      () => `X-Slow-${n++}: a\r\n`,
      200,
      20_000,
    );
    expect(res.closedByServer).toBe(true);
    expect(res.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(res.closedAfterMs).toBeLessThan(10_000);
  });

  it("a body sent a byte every 200 ms → 408 and the connection closed, within a few seconds", async () => {
    // The token endpoint reads its form before it answers anything.
    const head =
      "POST /sandbox/oauth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n";
    const res = await slowSender(service.baseUrl, head, () => "a", 200, 20_000);
    expect(res.closedByServer).toBe(true);
    expect(res.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(res.closedAfterMs).toBeLessThan(10_000);
  });

  it("a chunked body sent a chunk every 200 ms → 408 too", async () => {
    const head =
      "POST /sandbox/oauth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n";
    const res = await slowSender(service.baseUrl, head, () => "1\r\na\r\n", 200, 20_000);
    expect(res.closedByServer).toBe(true);
    expect(res.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(res.closedAfterMs).toBeLessThan(10_000);
  });

  it("a client that sends at once is answered as ever", async () => {
    const live = await fetch(`${service.baseUrl}/api/health/live`);
    expect(live.status).toBe(200);
  });
});
