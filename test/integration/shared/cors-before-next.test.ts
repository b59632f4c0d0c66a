import http from "node:http";
import { describe, expect, inject, it } from "vitest";
import { request } from "@/test/helpers/api";
import { expectApiError } from "@/test/helpers/fixtures";
import { sendStreamed } from "@/test/helpers/streamed-body";

// The answers the server gives on an API path before Next.js runs (server/http/body-limits.ts,
// server/http/before-next.ts) carry the CORS headers every other API answer has (server/http/cors.ts):
// a browser app reads a 413 TOO_LARGE, a pre-Next 405 or 404 and a bad percent-encoding 400 as it
// reads any error. The driver site's and the OAuth paths' answers get none (they are not the API).

const base = () => inject("baseUrl");
const MiB = 1024 * 1024;
const ORIGIN = "https://app.partner.example";

function expectCors(headers: Headers | Record<string, string | string[] | undefined>) {
  const get = (name: string) => (headers instanceof Headers ? headers.get(name) : (headers[name] as string));
  expect(get("access-control-allow-origin")).toBe("*");
  expect(get("access-control-expose-headers")).toMatch(/Retry-After/);
  expect(get("access-control-expose-headers")).toMatch(/X-Request-Id/);
}

function rawGet(path: string, headers: Record<string, string>) {
  const url = new URL(base());
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
    const req = http.get({ host: url.hostname, port: url.port, path, headers, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on("error", reject);
  });
}

describe("CORS on the answers given before Next.js", () => {
  it.each([
    ["Content-Length", false],
    ["chunked", true],
  ])("an API body over 1 MiB (%s) with Origin → 413 TOO_LARGE with the CORS headers", async (_, chunked) => {
    for (const path of ["/sandbox/api/vehicle/", "/v1/api/vehicle/"]) {
      const res = await sendStreamed(base(), {
        path,
        headers: { "Content-Type": "application/json", Authorization: "Bearer x", Origin: ORIGIN },
        total: 2 * MiB,
        chunked,
      });
      expect(res.status, res.text).toBe(413);
      expect(JSON.parse(res.text).error.errorCode).toBe("TOO_LARGE");
      expectCors(res.headers);
    }
  });

  it("a driver-site body over 1 MiB → 413 without them (not the API)", async () => {
    const res = await sendStreamed(base(), {
      path: "/me/account",
      headers: { "Content-Type": "application/json", Origin: ORIGIN },
      total: 2 * MiB,
    });
    expect(res.status).toBe(413);
    expect(res.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("an API path's pre-Next 405 (a method Next.js does not route), 404 and 400 carry them", async () => {
    const headers = { Origin: ORIGIN };
    const notAllowed = await request("PROPFIND", `${base()}/sandbox/api/vehicle/`, { headers });
    expectApiError(notAllowed, 405, "METHOD_NOT_ALLOWED");
    expectCors(notAllowed.headers);
    const unknown = await request("PROPFIND", `${base()}/sandbox/api/no/such/path`, { headers });
    expectApiError(unknown, 404, "NOT_FOUND");
    expectCors(unknown.headers);
    // Sent as written (fetch would resolve the dot segments itself): a path that leaves the API.
    const escaping = await rawGet("/sandbox/api/%2e%2e/%2e%2e/account/", headers);
    expect(escaping.status).toBe(404);
    expect(JSON.parse(escaping.text).error.errorCode).toBe("NOT_FOUND");
    expectCors(escaping.headers);
    const badPercent = await request("GET", `${base()}/sandbox/api/vehicle/%ZZ`, { headers });
    expectApiError(badPercent, 400, "VALIDATION");
    expectCors(badPercent.headers);
    // The driver site's JSON routes answer the same bodies, without CORS.
    const driver = await request("PROPFIND", `${base()}/me/account`, { headers });
    expect(driver.status).toBe(405);
    expect(driver.headers.get("access-control-allow-origin")).toBeNull();
  });
});
