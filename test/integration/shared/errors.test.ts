import { beforeAll, describe, expect, inject, it } from "vitest";
import {
  api,
  apiBase,
  clientToken,
  createDriver,
  request,
  tokenRequest,
  uniqueName,
  type Env,
} from "@/test/helpers/api";
import {
  addVehicle,
  apps,
  expectApiError,
  expectFieldErrors,
  expireAccessToken,
  uniqueDevice,
} from "@/test/helpers/fixtures";

// Every row of the error table (docs/api.md#errors) on the REST API, plus its CORS, OpenAPI and health surfaces.

type Driver = Awaited<ReturnType<typeof createDriver>>;

const MiB = 1024 * 1024;
const INVALID_TOKEN = 'Bearer realm="wayline", error="invalid_token"';

describe("400 VALIDATION", () => {
  let driver: Driver;
  beforeAll(async () => {
    driver = await createDriver("sandbox", apps().main.sandbox);
  });

  it("malformed JSON → 400 VALIDATION, body INVALID", async () => {
    const res = await request("POST", `${apiBase("sandbox")}/vehicle/`, {
      token: driver.accessToken,
      body: '{"label": "unterminated',
      headers: { "Content-Type": "application/json" },
    });
    expectFieldErrors(res, { body: "INVALID" });
  });

  it("an empty JSON body → 400 VALIDATION", async () => {
    const res = await request("POST", `${apiBase("sandbox")}/vehicle/`, {
      token: driver.accessToken,
      body: "",
      headers: { "Content-Type": "application/json" },
    });
    expectApiError(res, 400, "VALIDATION");
  });

  it("a JSON array where an object is expected → 400 VALIDATION, body INVALID", async () => {
    expectFieldErrors(await api("sandbox").post("/vehicle/", [{ label: "x" }], driver.accessToken), {
      body: "INVALID",
    });
  });

  it("wrong types → 400 VALIDATION, INVALID per field", async () => {
    expectFieldErrors(
      await api("sandbox").post(
        `/account/${driver.account.id}`,
        { firstName: 5, email: true, phone: ["555"] },
        driver.accessToken,
      ),
      {
        firstName: "INVALID",
        email: "INVALID",
        phone: "INVALID",
      },
    );
    expectFieldErrors(
      await api("sandbox").post("/vehicle/", { mileage: { miles: 3 }, autoAssignDevice: 1 }, driver.accessToken),
      { mileage: "INVALID", autoAssignDevice: "INVALID" },
    );
  });

  it("missing required fields → 400 VALIDATION, REQUIRED per field", async () => {
    expectFieldErrors(await api("sandbox").post("/account/", { firstName: "Only" }, driver.clientToken), {
      lastName: "REQUIRED",
      username: "REQUIRED",
      password: "REQUIRED",
    });
  });

  it("an unknown enum value → 400 VALIDATION, INVALID", async () => {
    expectFieldErrors(
      await api("sandbox").post(`/account/${driver.account.id}`, { preferredContact: "TELEGRAM" }, driver.accessToken),
      { preferredContact: "INVALID" },
    );
  });

  it("a bad query parameter → 400 VALIDATION naming it", async () => {
    expectFieldErrors(await api("sandbox").get("/vehicle/?searchLimit=many", driver.accessToken), {
      searchLimit: "INVALID",
    });
  });
});

describe("404 NOT_FOUND", () => {
  // App A's driver with a vehicle; app B's client token and driver must not see them.
  let a: Driver;
  let b: Driver;
  let vehicleId: number;
  let serial: string;
  beforeAll(async () => {
    a = await createDriver("sandbox", apps().main.sandbox);
    b = await createDriver("sandbox", apps().other.sandbox);
    serial = uniqueDevice();
    vehicleId = (await addVehicle("sandbox", a.accessToken, { deviceId: serial, label: "A's car" })).vehicleId;
  });

  it("unknown account and vehicle ids → 404", async () => {
    expectApiError(await api("sandbox").get("/account/2000000000", a.clientToken), 404, "NOT_FOUND");
    expectApiError(await api("sandbox").get("/vehicle/2000000000", a.accessToken), 404, "NOT_FOUND");
    expectApiError(await api("sandbox").get("/vehicle/no-such-device", a.accessToken), 404, "NOT_FOUND");
  });

  it("an account id that is not a number, or out of range → 404", async () => {
    expectApiError(await api("sandbox").get("/account/abc", a.clientToken), 404, "NOT_FOUND");
    expectApiError(await api("sandbox").get("/account/99999999999", a.clientToken), 404, "NOT_FOUND");
    expectApiError(await api("sandbox").get("/account/0", a.clientToken), 404, "NOT_FOUND");
  });

  it("app B's client token on app A's account → 404 for GET, POST and DELETE, and the account is untouched", async () => {
    const path = `/account/${a.account.id}`;
    expectApiError(await api("sandbox").get(path, b.clientToken), 404, "NOT_FOUND");
    expectApiError(await api("sandbox").post(path, { firstName: "Hijacked" }, b.clientToken), 404, "NOT_FOUND");
    expectApiError(await api("sandbox").del(path, b.clientToken), 404, "NOT_FOUND");
    const still = await api("sandbox").get(path, a.accessToken);
    expect(still.status).toBe(200);
    expect(still.body.account.firstName).toBe(a.account.firstName);
  });

  it("app B's tokens on app A's vehicle, by id and by serial → 404 for GET, POST and DELETE, and the vehicle is untouched", async () => {
    for (const token of [b.clientToken, b.accessToken]) {
      for (const ref of [String(vehicleId), serial]) {
        expectApiError(await api("sandbox").get(`/vehicle/${ref}`, token), 404, "NOT_FOUND");
        expectApiError(await api("sandbox").post(`/vehicle/${ref}`, { label: "Hijacked" }, token), 404, "NOT_FOUND");
        expectApiError(await api("sandbox").del(`/vehicle/${ref}`, token), 404, "NOT_FOUND");
      }
    }
    const still = await api("sandbox").get(`/vehicle/${vehicleId}`, a.accessToken);
    expect(still.body.vehicle).toMatchObject({ label: "A's car", deviceId: serial });
  });

  it("the same app's other driver → 404 on the first driver's account and vehicle", async () => {
    const neighbour = await createDriver("sandbox", apps().main.sandbox);
    expectApiError(await api("sandbox").get(`/account/${a.account.id}`, neighbour.accessToken), 404, "NOT_FOUND");
    expectApiError(await api("sandbox").get(`/vehicle/${vehicleId}`, neighbour.accessToken), 404, "NOT_FOUND");
  });

  it("the same id in the other environment → 404", async () => {
    const prodTok = await clientToken(apps().main.production);
    expectApiError(await api("production").get(`/account/${a.account.id}`, prodTok), 404, "NOT_FOUND");
    expectApiError(await api("production").get(`/vehicle/${vehicleId}`, prodTok), 404, "NOT_FOUND");
  });

  it.each(["GET", "POST", "DELETE", "PUT"])("an unknown path under /v1/api (%s) → 404 JSON", async (method) => {
    const res = await request(method, `${apiBase("production")}/no/such/thing`, {
      token: await clientToken(apps().main.production),
      json: method === "GET" ? undefined : {},
    });
    expectApiError(res, 404, "NOT_FOUND");
  });

  it("an unknown path without a token → 404 JSON as well", async () => {
    expectApiError(await request("GET", `${apiBase("sandbox")}/nothing-here/`), 404, "NOT_FOUND");
  });

  it("an unknown environment segment (/v2/api/account/) → 404 JSON", async () => {
    expectApiError(
      await request("GET", `${inject("baseUrl")}/v2/api/account/`, { token: a.clientToken }),
      404,
      "NOT_FOUND",
    );
  });
});

describe("405 METHOD_NOT_ALLOWED", () => {
  it.each([
    ["PUT", "/account/"],
    ["PATCH", "/account/"],
    ["DELETE", "/account/"],
    ["PUT", "/account/1"],
    ["PATCH", "/account/1"],
    ["PUT", "/vehicle/"],
    ["PATCH", "/vehicle/"],
    ["DELETE", "/vehicle/"],
    ["PUT", "/vehicle/1"],
    ["PATCH", "/vehicle/1"],
  ])("%s %s → 405 JSON", async (method, path) => {
    const res = await request(method, `${apiBase("production")}${path}`, {
      token: await clientToken(apps().main.production),
      json: {},
    });
    expectApiError(res, 405, "METHOD_NOT_ALLOWED");
  });
});

describe("401 UNAUTHORIZED", () => {
  let driver: Driver;
  beforeAll(async () => {
    driver = await createDriver("sandbox", apps().main.sandbox);
  });

  it('no token → 401, WWW-Authenticate: Bearer realm="wayline" without an error attribute', async () => {
    for (const [method, path] of [
      ["GET", "/account/"],
      ["POST", "/account/"],
      ["GET", "/vehicle/1"],
      ["DELETE", "/vehicle/1"],
    ] as const) {
      const res = await request(method, `${apiBase("sandbox")}${path}`, { json: method === "POST" ? {} : undefined });
      expectApiError(res, 401, "UNAUTHORIZED");
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="wayline"');
    }
  });

  it.each([
    ["a malformed token", "Bearer not a token"],
    ["an empty bearer", "Bearer "],
    ["Basic instead of Bearer", `Basic ${Buffer.from("a:b").toString("base64")}`],
    ["an unknown token", "Bearer AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"],
  ])('%s → 401 with error="invalid_token"', async (_what, authorization) => {
    const res = await request("GET", `${apiBase("sandbox")}/account/`, { headers: { Authorization: authorization } });
    expectApiError(res, 401, "UNAUTHORIZED");
    expect(res.headers.get("www-authenticate")).toBe(INVALID_TOKEN);
  });

  it('an expired token → 401 with error="invalid_token", detail says "expired"', async () => {
    const other = await createDriver("sandbox", apps().main.sandbox);
    expect((await api("sandbox").get("/account/", other.accessToken)).status).toBe(200);
    await expireAccessToken(other.accessToken);
    const res = await api("sandbox").get("/account/", other.accessToken);
    const error = expectApiError(res, 401, "UNAUTHORIZED");
    expect(res.headers.get("www-authenticate")).toBe(INVALID_TOKEN);
    expect(error.detail).toMatch(/expired/i);
  });

  it('a revoked token (replaced by a refresh) → 401 with error="invalid_token"', async () => {
    const other = await createDriver("sandbox", apps().main.sandbox);
    const refreshed = await tokenRequest(
      { grant_type: "refresh_token", refresh_token: other.refreshToken },
      { basic: apps().main.sandbox },
    );
    expect(refreshed.status).toBe(200);
    const res = await api("sandbox").get("/account/", other.accessToken);
    expectApiError(res, 401, "UNAUTHORIZED");
    expect(res.headers.get("www-authenticate")).toBe(INVALID_TOKEN);
  });

  it("a sandbox token on /v1/api → 401 invalid_token", async () => {
    for (const token of [driver.accessToken, driver.clientToken]) {
      const res = await api("production").get("/account/", token);
      expectApiError(res, 401, "UNAUTHORIZED");
      expect(res.headers.get("www-authenticate")).toBe(INVALID_TOKEN);
    }
  });

  it("a production token on /sandbox/api → 401 invalid_token", async () => {
    const prod = await createDriver("production", apps().main.production);
    for (const token of [prod.accessToken, prod.clientToken]) {
      const res = await api("sandbox").get("/account/", token);
      expectApiError(res, 401, "UNAUTHORIZED");
      expect(res.headers.get("www-authenticate")).toBe(INVALID_TOKEN);
    }
  });
});

describe("403 FORBIDDEN", () => {
  it("a user token creating an account → 403", async () => {
    const driver = await createDriver("production", apps().main.production);
    expectApiError(
      await api("production").post(
        "/account/",
        { firstName: "A", lastName: "B", username: uniqueName("forbidden"), password: "long-enough-1" },
        driver.accessToken,
      ),
      403,
      "FORBIDDEN",
    );
  });
});

describe("409 CANNOTPERSIST", () => {
  it("a taken deviceId → 409 with field code UNIQUE", async () => {
    const driver = await createDriver("sandbox", apps().main.sandbox);
    const serial = uniqueDevice();
    await addVehicle("sandbox", driver.accessToken, { deviceId: serial, autoAssignDevice: false });
    const error = expectApiError(
      await api("sandbox").post("/vehicle/", { deviceId: serial }, driver.accessToken),
      409,
      "CANNOTPERSIST",
    );
    expect(error.fieldErrors.map((f) => [f.fieldName, f.errorCode])).toEqual([["deviceId", "UNIQUE"]]);
  });
});

describe("413 TOO_LARGE and 415 UNSUPPORTED_MEDIA_TYPE", () => {
  let token: string;
  beforeAll(async () => {
    token = (await createDriver("sandbox", apps().main.sandbox)).accessToken;
  });

  it("a body over 1 MiB → 413 TOO_LARGE", async () => {
    const body = JSON.stringify({ label: "x".repeat(MiB) });
    expect(body.length).toBeGreaterThan(MiB);
    expectApiError(
      await request("POST", `${apiBase("sandbox")}/vehicle/`, {
        token,
        body,
        headers: { "Content-Type": "application/json" },
      }),
      413,
      "TOO_LARGE",
    );
    expect((await api("sandbox").post("/vehicle/", { label: "after a 413" }, token)).status).toBe(200);
  });

  it("a body over 1 MiB sent chunked, without Content-Length → 413 TOO_LARGE, Connection: close, and the next request works", async () => {
    // The client sends just over 1 MiB and then waits, as a slow uploader would; the service
    // must answer without waiting for the end of the body.
    const encoder = new TextEncoder();
    const chunk = encoder.encode("x".repeat(64 * 1024));
    let sent = 0;
    let release!: () => void;
    const stalled = new Promise<void>((resolve) => (release = resolve));
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent === 0) controller.enqueue(encoder.encode('{"label":"'));
        if (sent > MiB) {
          await stalled;
          controller.close();
          return;
        }
        controller.enqueue(chunk);
        sent += chunk.byteLength;
      },
    });
    try {
      const res = await fetch(`${apiBase("sandbox")}/vehicle/`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: stream,
        duplex: "half",
      } as RequestInit);
      const text = await res.text();
      expectApiError({ status: res.status, headers: res.headers, body: JSON.parse(text), text }, 413, "TOO_LARGE");
      expect(res.headers.get("connection")).toBe("close");
    } finally {
      release();
    }
    const next = await api("sandbox").post("/vehicle/", { label: "after a 413" }, token);
    expect(next.status, next.text).toBe(200);
  });

  it("a body of exactly 1 MiB is read and validated (400, not 413)", async () => {
    const prefix = '{"label":"';
    const suffix = '"}';
    const body = prefix + "x".repeat(MiB - prefix.length - suffix.length) + suffix;
    expect(Buffer.byteLength(body)).toBe(MiB);
    expectFieldErrors(
      await request("POST", `${apiBase("sandbox")}/vehicle/`, {
        token,
        body,
        headers: { "Content-Type": "application/json" },
      }),
      { label: "TOO_LONG" },
    );
  });

  it("a text/plain body → 415 UNSUPPORTED_MEDIA_TYPE", async () => {
    const res = await request("POST", `${apiBase("sandbox")}/vehicle/`, {
      token,
      body: JSON.stringify({ label: "x" }),
      headers: { "Content-Type": "text/plain" },
    });
    expectApiError(res, 415, "UNSUPPORTED_MEDIA_TYPE");
  });

  it("a form body → 415, and no vehicle is created", async () => {
    const before = (await api("sandbox").get("/vehicle/", token)).body.totalRecords;
    const res = await request("POST", `${apiBase("sandbox")}/vehicle/`, {
      token,
      body: "label=x",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expectApiError(res, 415, "UNSUPPORTED_MEDIA_TYPE");
    expect((await api("sandbox").get("/vehicle/", token)).body.totalRecords).toBe(before);
  });

  it("application/json with a charset, and a +json type, are accepted", async () => {
    for (const type of ["application/json; charset=utf-8", "application/vnd.wayline+json"]) {
      const res = await request("POST", `${apiBase("sandbox")}/vehicle/`, {
        token,
        body: JSON.stringify({ label: type }),
        headers: { "Content-Type": type },
      });
      expect(res.status, res.text).toBe(200);
    }
  });
});

describe("CORS", () => {
  it.each(["/account/", "/account/1", "/vehicle/", "/vehicle/1", "/no/such/path"])(
    "OPTIONS %s preflight → 204, any origin, Authorization allowed",
    async (path) => {
      const res = await request("OPTIONS", `${apiBase("production")}${path}`, {
        headers: {
          Origin: "https://app.partner.example",
          "Access-Control-Request-Method": "POST",
          "Access-Control-Request-Headers": "authorization, content-type",
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      const allowed = (res.headers.get("access-control-allow-headers") ?? "").toLowerCase().split(/\s*,\s*/);
      expect(allowed).toEqual(expect.arrayContaining(["authorization", "content-type"]));
      expect(res.headers.get("access-control-allow-methods")).toMatch(/POST/);
    },
  );

  it("success and error responses carry Access-Control-Allow-Origin and expose WWW-Authenticate", async () => {
    const token = await clientToken(apps().main.sandbox);
    const ok = await request("GET", `${apiBase("sandbox")}/account/`, {
      token,
      headers: { Origin: "https://app.partner.example" },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBe("*");
    const denied = await request("GET", `${apiBase("sandbox")}/account/`, {
      headers: { Origin: "https://app.partner.example" },
    });
    expect(denied.status).toBe(401);
    expect(denied.headers.get("access-control-allow-origin")).toBe("*");
    expect(denied.headers.get("access-control-expose-headers")).toMatch(/WWW-Authenticate/i);
    const missing = await request("GET", `${apiBase("sandbox")}/account/abc`, { token });
    expect(missing.headers.get("access-control-allow-origin")).toBe("*");
  });
});

describe("OpenAPI and health", () => {
  it.each<[Env, string]>([
    ["production", "/v1/api"],
    ["sandbox", "/sandbox/api"],
  ])(
    "GET openapi.json in %s → OpenAPI 3.1 with the account and vehicle paths and this environment's server URL",
    async (env, base) => {
      const res = await request("GET", `${apiBase(env)}/openapi.json`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(res.body.openapi).toMatch(/^3\.1\./);
      expect(res.body.servers).toEqual([expect.objectContaining({ url: `${inject("baseUrl")}${base}` })]);
      const paths = Object.keys(res.body.paths);
      expect(paths).toEqual(
        expect.arrayContaining([
          "/account/",
          "/account/data/",
          "/account/{accountId}",
          "/vehicle/",
          "/vehicle/{vehicleId}",
          "/vehicle/{vehicleId}/data/",
          "/vehicle/{vehicleId}/dataSet/",
          "/vehicle/{vehicleId}/dataSet/{dataSetId}",
          "/vehicle/{vehicleId}/trip/",
          "/vehicle/{vehicleId}/trip/{tripId}",
          "/vehicle/{vehicleId}/eventSubscription/",
          "/vehicle/{vehicleId}/eventSubscription/{eventType}/{subscriptionId}",
          "/account/{accountId}/eventSubscription/{eventType}/",
          "/system/eventSubscription/{subscriptionId}",
          "/vehicle/{vehicleId}/eventNotification/{notificationId}",
          "/account/{accountId}/eventSubscription/{subscriptionId}/eventNotification/",
          "/test/vehicle/{vehicleId}/eventSubscription/{subscriptionId}",
          // The traffic simulator is the sandbox's only.
          ...(env === "sandbox"
            ? [
                "/simulation/route/",
                "/simulation/route/{routeId}",
                "/simulation/template/",
                "/simulation/template/{templateId}",
                "/vehicle/{vehicleId}/simulation/",
                "/vehicle/{vehicleId}/simulation/{runId}",
              ]
            : []),
        ]),
      );
      if (env === "production") expect(paths.filter((p) => p.includes("simulation"))).toEqual([]);
      expect(Object.keys(res.body.paths["/vehicle/{vehicleId}/eventSubscription/{subscriptionId}"]).sort()).toEqual([
        "delete",
        "get",
        "post",
      ]);
      expect(Object.keys(res.body.paths["/account/"]).sort()).toEqual(["get", "post"]);
      expect(Object.keys(res.body.paths["/account/{accountId}"]).sort()).toEqual(["delete", "get", "post"]);
      expect(Object.keys(res.body.paths["/vehicle/"]).sort()).toEqual(["get", "post"]);
      expect(Object.keys(res.body.paths["/vehicle/{vehicleId}"]).sort()).toEqual(["delete", "get", "post"]);
      expect(res.body.components.schemas.Error).toBeDefined();
    },
  );

  it("GET /api/health → 200", async () => {
    const res = await request("GET", `${inject("baseUrl")}/api/health`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("ok");
  });
});
