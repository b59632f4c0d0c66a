import http from "node:http";
import { describe, expect, inject, it } from "vitest";

// Every answer on an API path is JSON in the API's error body, whatever the method or the path's
// spelling (issue 19.3, docs/api.md#errors); the OAuth endpoints answer other methods 405 with
// Allow: POST (docs/oauth.md#token-endpoint). Over node:http: fetch refuses TRACE and normalizes
// dot segments before sending.

type Raw = { status: number; headers: http.IncomingHttpHeaders; body: any; text: string };

function raw(method: string, path: string): Promise<Raw> {
  const base = new URL(inject("baseUrl"));
  return new Promise((resolve, reject) => {
    const req = http.request({ host: base.hostname, port: base.port, method, path }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => {
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode!, headers: res.headers, body, text });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

function expectApiError(reply: Raw, status: number, errorCode: string) {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.headers["content-type"]).toMatch(/^application\/json/);
  expect(reply.body.error).toMatchObject({ httpStatus: status, errorCode });
}

describe("unsupported methods on API paths → 405 METHOD_NOT_ALLOWED in the API's error body", () => {
  it.each([
    ["TRACE", "/v1/api/vehicle/"],
    ["TRACE", "/sandbox/api/account/1"],
    ["TRACE", "/sandbox/api/openapi.json"],
    ["PATCH", "/sandbox/api/vehicle/"],
    ["PUT", "/v1/api/vehicle/1"],
    ["PUT", "/sandbox/api/system/eventSubscription/"],
  ])("%s %s", async (method, path) => {
    expectApiError(await raw(method, path), 405, "METHOD_NOT_ALLOWED");
  });

  it.each(["PUT", "DELETE", "POST", "PATCH"])("%s openapi.json → 405 with Allow: GET, HEAD", async (method) => {
    for (const path of ["/v1/api/openapi.json", "/sandbox/api/openapi.json"]) {
      const res = await raw(method, path);
      expectApiError(res, 405, "METHOD_NOT_ALLOWED");
      expect(res.headers.allow).toBe("GET, HEAD");
    }
  });
});

describe("other methods at the OAuth token and revocation endpoints → 405 JSON with Allow: POST", () => {
  const paths = ["/oauth/token", "/oauth/revoke", "/sandbox/oauth/token", "/sandbox/oauth/revoke"];
  it.each(["GET", "PUT", "PATCH", "DELETE", "TRACE"])("%s", async (method) => {
    for (const path of paths) {
      const res = await raw(method, path);
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(405);
      expect(res.headers.allow).toBe("POST");
      expect(res.headers["content-type"]).toMatch(/^application\/json/);
      expect(res.body).toEqual({ error: "invalid_request", error_description: expect.any(String) });
    }
  });
});

describe("dot segments and the bare base on API paths → JSON, never HTML", () => {
  it.each(["/sandbox/api/account/..", "/v1/api/..", "/v1/api/%2e%2e", "/sandbox/api/", "/v1/api"])("%s → 404 NOT_FOUND", async (path) => {
    expectApiError(await raw("GET", path), 404, "NOT_FOUND");
  });

  it("/v1/api/vehicle/../account/ is normalized to /v1/api/account/ and answered as it (401 without a token)", async () => {
    expectApiError(await raw("GET", "/v1/api/vehicle/../account/"), 401, "UNAUTHORIZED");
  });
});
