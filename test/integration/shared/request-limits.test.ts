import http from "node:http";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { request } from "@/test/helpers/api";
import { apiErrorProblem, send } from "@/test/helpers/fuzz";
import { sendStreamed } from "@/test/helpers/streamed-body";
import { driverWithVehicle } from "@/test/helpers/telemetry";

// The limits on what one request may hold (docs/api.md#request-bodies,
// docs/operations.md#request-limits): JSON nested deeper than 64 levels is refused by a scan of
// the raw text before anything walks it, bodies over the path's limit are answered 413 before they
// are read, and any path under /me answers in the API's body.

const base = () => inject("baseUrl");
const MiB = 1024 * 1024;

let vehicle: { accessToken: string; vehicleId: number };
beforeAll(async () => {
  vehicle = await driverWithVehicle("sandbox");
});

const postJson = (path: string, body: string, token = vehicle.accessToken) =>
  send({
    method: "POST",
    path,
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body,
  });
const dataSetPath = () => `/sandbox/api/vehicle/${vehicle.vehicleId}/dataSet/`;

function expectNestingError(res: { status: number; text: string; body: unknown }) {
  expect(res.status, res.text.slice(0, 300)).toBe(400);
  expect(apiErrorProblem({ ...res, headers: {} })).toBeNull();
  const error = (
    res.body as {
      error: { errorCode: string; fieldErrors: { fieldName: string; errorCode: string; errorDisplay: string }[] };
    }
  ).error;
  expect(error.errorCode).toBe("VALIDATION");
  expect(error.fieldErrors).toEqual([
    { fieldName: "body", errorCode: "INVALID", errorDisplay: expect.stringMatching(/deeper than 64 levels/) },
  ]);
}

describe("JSON nesting: refused past 64 levels, before anything walks the body", () => {
  it.each([
    ["arrays 8,000 deep around a NUL", `${"[".repeat(8000)}"\\u0000"${"]".repeat(8000)}`],
    ["arrays 8,000 deep around a lone surrogate", `${"[".repeat(8000)}"\\ud800"${"]".repeat(8000)}`],
    ["objects 8,000 deep around a NUL", `${'{"a":'.repeat(8000)}"\\u0000"${"}".repeat(8000)}`],
    ["arrays 65 deep", `${"[".repeat(65)}1${"]".repeat(65)}`],
    ["unclosed brackets 100,000 deep", "[".repeat(100_000)],
  ])("POST dataSet with %s → 400 VALIDATION naming the body's nesting", async (_, body) => {
    expectNestingError(await postJson(dataSetPath(), body));
  });

  it("brackets inside strings do not count, and 64 levels are allowed", async () => {
    const inString = await postJson(dataSetPath(), JSON.stringify({ label: "[".repeat(5000) }));
    expect(inString.status).toBe(400);
    expect(JSON.stringify(inString.body)).not.toMatch(/deeper than/);
    const atLimit = await postJson(dataSetPath(), `${"[".repeat(64)}1${"]".repeat(64)}`);
    expect(atLimit.status).toBe(400);
    expect(JSON.stringify(atLimit.body)).not.toMatch(/deeper than/);
  });

  it("the same on the driver site's JSON routes (/me)", async () => {
    // Unauthenticated: the nesting is no reason to read a body the route refuses anyway; the
    // answer is in the API's body whatever it is, never a 500.
    const res = await send({
      method: "POST",
      path: "/me/vehicles",
      headers: { "Content-Type": "application/json" },
      body: `${"[".repeat(8000)}"\\u0000"${"]".repeat(8000)}`,
    });
    expect(res.status).toBeLessThan(500);
    expect(apiErrorProblem(res)).toBeNull();
  });

  it("four 800 KB bodies of 200 arrays 2,000 deep and a NUL: each a quick 400 while liveness keeps answering", async () => {
    const deep = `${"[".repeat(2000)}${"]".repeat(2000)}`;
    const body = `[${Array.from({ length: 200 }, () => deep).join(",")},"\\u0000"]`;
    expect(body.length).toBeGreaterThan(800_000);
    const started = Date.now();
    const url = `${base()}${dataSetPath()}`;
    const headers = { "Content-Type": "application/json" };
    let inFlight = true;
    const answers = Promise.all(
      Array.from({ length: 4 }, () =>
        request("POST", url, { token: vehicle.accessToken, headers, body }).then((res) => ({
          res,
          at: Date.now() - started,
        })),
      ),
    ).finally(() => (inFlight = false));
    // Liveness asked over and over while the four are in flight: a walk over such a body used to
    // hold the process for half a minute each, and liveness waited behind it.
    const probes: { status: number; ms: number }[] = [];
    do {
      const asked = Date.now();
      const live = await request("GET", `${base()}/api/health/live`);
      probes.push({ status: live.status, ms: Date.now() - asked });
      await new Promise((r) => setTimeout(r, 50));
    } while (inFlight);
    for (const { res, at } of await answers) {
      expectNestingError(res);
      expect(at).toBeLessThan(15_000);
    }
    expect(probes.every((p) => p.status === 200)).toBe(true);
    expect(Math.max(...probes.map((p) => p.ms))).toBeLessThan(5_000);
  });
});

describe("body sizes: 413 at the path's limit, before the body is read", () => {
  const oauthTooLarge = (res: { status: number; headers: http.IncomingHttpHeaders; text: string }) => {
    expect(res.status, res.text).toBe(413);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(res.text)).toEqual({
      error: "invalid_request",
      error_description: expect.stringMatching(/larger than 65536 bytes/),
    });
  };
  const form = { "Content-Type": "application/x-www-form-urlencoded" };

  it("300 MiB declared to POST /sandbox/oauth/token without credentials → 413 invalid_request, answered long before the upload ends", async () => {
    const res = await sendStreamed(base(), { path: "/sandbox/oauth/token", headers: form, total: 300 * MiB });
    oauthTooLarge(res);
    expect(res.finishedWhenAnswered).toBe(false);
    // What the client got into the socket before the answer: socket buffers, not the body.
    expect(res.sentWhenAnswered).toBeLessThan(64 * MiB);
  });

  it.each(["/oauth/token", "/oauth/revoke", "/sandbox/oauth/revoke", "/sandbox/OAuth/Token"])(
    "300 MiB chunked (no Content-Length) to POST %s → 413 invalid_request, the upload cut short",
    async (path) => {
      const res = await sendStreamed(base(), { path, headers: form, total: 300 * MiB, chunked: true });
      oauthTooLarge(res);
      expect(res.finishedWhenAnswered).toBe(false);
      expect(res.sentWhenAnswered).toBeLessThan(64 * MiB);
    },
  );

  it.each([
    ["Content-Length", false],
    ["chunked", true],
  ])("a 300 MiB API body (%s) → 413 TOO_LARGE in the API's error body, the upload cut short", async (_, chunked) => {
    const res = await sendStreamed(base(), {
      path: "/sandbox/api/vehicle/",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${vehicle.accessToken}` },
      total: 300 * MiB,
      chunked,
    });
    expect(res.status, res.text).toBe(413);
    expect(apiErrorProblem({ ...res, body: JSON.parse(res.text) })).toBeNull();
    expect(JSON.parse(res.text).error.errorCode).toBe("TOO_LARGE");
    expect(res.finishedWhenAnswered).toBe(false);
    expect(res.sentWhenAnswered).toBeLessThan(64 * MiB);
  });

  it.each([
    ["the driver sign-in callback", "/api/auth/callback/credentials", form],
    ["the partner sign-in callback", "/api/partner-auth/callback/credentials", form],
    [
      "a console page's server action",
      "/console",
      { "Content-Type": "text/plain;charset=UTF-8", "Next-Action": "0".repeat(42) },
    ],
    ["a console action route", "/console/actions/create-app", form],
    ["the consent post", "/oauth/authorize/decision", form],
    ["a driver form post", "/connected-apps/revoke", form],
  ])("300 MiB chunked to %s (%s) → 413 text/plain, the upload cut short", async (_, path, headers) => {
    const res = await sendStreamed(base(), { path, headers, total: 300 * MiB, chunked: true });
    expect(res.status, res.text).toBe(413);
    expect(res.headers["content-type"]).toMatch(/^text\/plain/);
    expect(res.text).toMatch(/larger than 65536 bytes/);
    expect(res.finishedWhenAnswered).toBe(false);
    expect(res.sentWhenAnswered).toBeLessThan(64 * MiB);
  });

  it("a form just over 64 KiB (Content-Length) → 413; the API takes the same body", async () => {
    const res = await sendStreamed(base(), {
      path: "/api/auth/callback/credentials",
      headers: form,
      total: 64 * 1024 + 1,
    });
    expect(res.status).toBe(413);
    const label = "x".repeat(100 * 1024);
    const created = await request("POST", `${base()}/sandbox/api/vehicle/`, {
      token: vehicle.accessToken,
      json: { label },
    });
    expect(created.status).not.toBe(413);
  });

  it("a chunked body within the limit reaches the route whole (token endpoint and API)", async () => {
    const token = await sendStreamed(base(), {
      path: "/sandbox/oauth/token",
      headers: form,
      total: 10_000,
      chunked: true,
      fill: "b",
    });
    // No credentials: the endpoint's own answer, not the size limit's.
    expect(token.status).toBe(400);
    expect(JSON.parse(token.text).error).toBe("invalid_request");
    const created = await chunkedJson("/sandbox/api/vehicle/", { label: "Chunked car" }, vehicle.accessToken);
    expect(created.status, created.text).toBe(200);
    expect(JSON.parse(created.text).vehicle.label).toBe("Chunked car");
  });
});

/** A JSON body sent chunked (no Content-Length), in two pieces. */
function chunkedJson(path: string, json: unknown, token: string): Promise<{ status: number; text: string }> {
  const base = new URL(inject("baseUrl"));
  const text = JSON.stringify(json);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: base.hostname,
        port: base.port,
        method: "POST",
        path,
        headers: {
          "Content-Type": "application/json",
          Authorization: `Bearer ${token}`,
          "Transfer-Encoding": "chunked",
        },
        agent: false,
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode!, text: body }));
      },
    );
    req.on("error", reject);
    req.write(text.slice(0, 5));
    setTimeout(() => req.end(text.slice(5)), 50);
  });
}

describe("any other path under /me → 404 in the API's error body", () => {
  it.each([
    ["GET", "/me/vehicles/.."],
    ["POST", "/me/vehicles/.."],
    ["GET", "/me/vehicles/7/../.."],
    ["GET", "/me/"],
    ["GET", "/me/unknown"],
    ["DELETE", "/me/.."],
  ])("%s %s", async (method, path) => {
    const res = await send({
      method,
      path,
      headers: method === "POST" ? { "Content-Type": "application/json" } : {},
      body: method === "POST" ? "{}" : undefined,
    });
    expect(res.status, res.text.slice(0, 200)).toBe(404);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(apiErrorProblem(res)).toBeNull();
  });

  it("a dot segment that stays on a route is resolved: GET /me/vehicles/1/../2 answers as /me/vehicles/2", async () => {
    const res = await send({ method: "GET", path: "/me/vehicles/1/../2", headers: {} });
    // Unauthenticated: the route's own 401, not a 404.
    expect(res.status).toBe(401);
    expect(apiErrorProblem(res)).toBeNull();
  });
});
