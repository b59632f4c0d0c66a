import http from "node:http";
import { describe, expect, inject, it } from "vitest";

// Every answer on an API path is JSON in the API's error body, whatever the method or the path's
// spelling (docs/api.md#errors); the OAuth endpoints answer other methods 405 with
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
  return reply.body.error as { fieldErrors: unknown[] };
}

describe("unsupported methods on API paths → 405 METHOD_NOT_ALLOWED in the API's error body", () => {
  it.each([
    ["TRACE", "/v1/api/vehicle/"],
    ["TRACE", "/sandbox/api/account/1"],
    ["TRACE", "/sandbox/api/openapi.json"],
    ["PROPFIND", "/v1/api/vehicle/7/trip/"],
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

describe("methods Next.js cannot route on the OAuth pages and endpoints, however the path is spelled → 405, never 500", () => {
  it.each(["/oauth/%2e%2e/oauth/token", "/sandbox/oauth//revoke", "/oauth/./token"])(
    "TRACE %s → 405 JSON with Allow: POST",
    async (path) => {
      const res = await raw("TRACE", path);
      expect(res.status, res.text).toBe(405);
      expect(res.headers.allow).toBe("POST");
      expect(res.body).toEqual({ error: "invalid_request", error_description: expect.any(String) });
    },
  );

  it.each(["/oauth/authorize", "/sandbox/oauth/authorize", "/OAuth/authorize"])(
    "TRACE %s → 405 with Allow: GET, HEAD, OPTIONS",
    async (path) => {
      const res = await raw("TRACE", path);
      expect(res.status, res.text).toBe(405);
      expect(res.headers.allow).toBe("GET, HEAD, OPTIONS");
    },
  );
});

describe("a request Node's HTTP parser refuses → 400 in the API's error body, not Node's bare 400", () => {
  const connectx = (path: string) =>
    new Promise<Raw>((resolve, reject) => {
      const base = new URL(inject("baseUrl"));
      const req = http.request(
        {
          host: base.hostname,
          port: base.port,
          method: "CONNECTX",
          path,
          headers: { "Content-Type": "application/json" },
        },
        (r) => {
          let text = "";
          r.setEncoding("utf8");
          r.on("data", (c: string) => (text += c));
          r.on("end", () => resolve({ status: r.statusCode!, headers: r.headers, body: JSON.parse(text), text }));
        },
      );
      req.on("error", reject);
      req.end('{"label":"x"}');
    });

  it("an unknown method token (CONNECTX) with a body on an API path", async () => {
    expectApiError(await connectx("/sandbox/api/vehicle/"), 400, "VALIDATION");
  });

  it.each(["/oauth/token", "/oauth/%2e%2e/oauth/token", "/sandbox/oauth//revoke"])(
    "the same at %s → RFC 6749 invalid_request",
    async (path) => {
      const res = await connectx(path);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "invalid_request", error_description: expect.any(String) });
    },
  );
});

describe("dot segments and the bare base on API paths → JSON, never HTML", () => {
  it.each(["/sandbox/api/account/..", "/v1/api/..", "/v1/api/%2e%2e", "/sandbox/api/", "/v1/api"])(
    "%s → 404 NOT_FOUND",
    async (path) => {
      expectApiError(await raw("GET", path), 404, "NOT_FOUND");
    },
  );

  it.each(["/v1/api//account/", "/sandbox/api/account//", "/sandbox/api/vehicle/..//account/", "/v1/api/./account/."])(
    "%s (empty or dot segments) is answered as /account/, not redirected (401 without a token)",
    async (path) => {
      expectApiError(await raw("GET", path), 401, "UNAUTHORIZED");
    },
  );

  it.each(["/sandbox/api/account//../..", "/v1/api//..", "/sandbox/api/account//.."])(
    "%s → 404 NOT_FOUND in the API's body, not a 308",
    async (path) => {
      expectApiError(await raw("GET", path), 404, "NOT_FOUND");
    },
  );

  it("/v1/api/vehicle/../account/ is normalized to /v1/api/account/ and answered as it (401 without a token)", async () => {
    expectApiError(await raw("GET", "/v1/api/vehicle/../account/"), 401, "UNAUTHORIZED");
  });
});

describe("a path that is not valid percent-encoding → 400, never Next.js's 500 text/plain", () => {
  it.each([
    "/sandbox/api/vehicle/%ZZ",
    "/v1/api/vehicle/1/trip/%",
    "/sandbox/api/vehicle/%C0%AE",
    "/sandbox/api/vehicle/1/eventSubscription/%E2%80",
  ])("%s → 400 VALIDATION, path INVALID", async (path) => {
    const res = await raw("GET", path);
    const error = expectApiError(res, 400, "VALIDATION");
    expect(error.fieldErrors).toEqual([{ fieldName: "path", errorCode: "INVALID", errorDisplay: expect.any(String) }]);
  });

  it("a driver-site data route (/me/vehicles/%ZZ) → 400 in the API's error body", async () => {
    expectApiError(await raw("GET", "/me/vehicles/%ZZ"), 400, "VALIDATION");
  });

  it("a page path (/%ZZ) → 400 text/plain", async () => {
    const res = await raw("GET", "/vehicles/%ZZ");
    expect(res.status).toBe(400);
    expect(res.headers["content-type"]).toMatch(/^text\/plain/);
  });
});

describe("every 405 on an API path names the path's methods in Allow", () => {
  type PathItem = Record<
    string,
    { parameters?: { name: string; in: string; schema: { enum?: string[]; meta?: unknown } }[] }
  >;
  // A concrete path for an OpenAPI path: an event type where the template has one, else an id.
  const concrete = (template: string, item: PathItem) => {
    const params = Object.values(item).flatMap((op) => op.parameters ?? []);
    return template.replace(
      /\{(\w+)\}/g,
      (_, name: string) => params.find((p) => p.name === name)?.schema.enum?.[0] ?? "7",
    );
  };

  it.each(["/sandbox/api", "/v1/api"])(
    "each path of %s/openapi.json: other methods → 405 with Allow = its methods (+ HEAD with GET, + OPTIONS where the preflight answers)",
    async (base) => {
      const doc = await raw("GET", `${base}/openapi.json`);
      expect(doc.status).toBe(200);
      const paths = Object.entries(doc.body.paths as Record<string, PathItem>);
      expect(paths.length).toBeGreaterThan(20);
      for (const [template, item] of paths) {
        const path = base + concrete(template, item);
        const served = Object.keys(item).map((m) => m.toUpperCase());
        const preflight = await raw("OPTIONS", path);
        expect(preflight.status, `OPTIONS ${path}`).toBe(204);
        const expected = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
          .filter((m) => served.includes(m) || (m === "HEAD" && served.includes("GET")) || m === "OPTIONS")
          .join(", ");
        for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "TRACE"].filter((m) => !served.includes(m))) {
          const res = await raw(method, path);
          expectApiError(res, 405, "METHOD_NOT_ALLOWED");
          expect(res.headers.allow, `${method} ${path}`).toBe(expected);
        }
        // And each method it names is served: answered, but never with a 405.
        for (const method of expected.split(", ")) {
          const res = await raw(method, path);
          expect(res.status, `${method} ${path} is in Allow: ${res.text}`).not.toBe(405);
        }
      }
    },
  );
});

describe("the driver site's JSON routes: a method a route does not serve → 405 in the API's error body with Allow", () => {
  it.each([
    ["/me/account", "GET, HEAD, POST, DELETE, OPTIONS"],
    ["/me/account/password", "POST, OPTIONS"],
    ["/me/vehicles", "POST, OPTIONS"],
    ["/me/vehicles/7", "GET, HEAD, POST, DELETE, OPTIONS"],
    ["/me/vehicles/7/location-pause", "POST, OPTIONS"],
    ["/me/vehicles/7/shares", "GET, HEAD, POST, OPTIONS"],
    ["/me/vehicles/7/shares/3", "DELETE, OPTIONS"],
    ["/share/AAAAAAAAAAAAAAAAAAAAAA/stream", "GET, HEAD, OPTIONS"],
    ["/share/AAAAAAAAAAAAAAAAAAAAAA/position", "GET, HEAD, OPTIONS"],
    ["/me/positions", "GET, HEAD, OPTIONS"],
    ["/me/positions/stream", "GET, HEAD, OPTIONS"],
    ["/me/access-log", "GET, HEAD, OPTIONS"],
    ["/me/export", "GET, HEAD, OPTIONS"],
    ["/me/places", "GET, HEAD, POST, OPTIONS"],
    ["/me/places/7", "PATCH, DELETE, OPTIONS"],
    ["/me/places/export", "GET, HEAD, OPTIONS"],
    ["/me/places/import", "POST, OPTIONS"],
  ])("%s: OPTIONS and every 405 say Allow: %s, and no method it names answers 405", async (path, allow) => {
    const options = await raw("OPTIONS", path);
    expect(options.status).toBe(204);
    expect(options.headers.allow).toBe(allow);
    const served = allow.split(", ");
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "TRACE", "PROPFIND"].filter(
      (m) => !served.includes(m),
    )) {
      const res = await raw(method, path);
      expectApiError(res, 405, "METHOD_NOT_ALLOWED");
      expect(res.headers.allow, `${method} ${path}`).toBe(allow);
    }
    for (const method of served) expect((await raw(method, path)).status, `${method} ${path}`).not.toBe(405);
  });
});
