import net from "node:net";
import { describe, expect, inject, test } from "vitest";
import { createDriver } from "@/test/helpers/api";
import { addVehicle, apps, uniqueDevice } from "@/test/helpers/fixtures";
import { apiErrorProblem, send, type Raw } from "@/test/helpers/fuzz";

// Absolute URLs come from configuration (PUBLIC_URL, else the address the server listens on:
// docs/operations.md#public-url), never from the request's Host or X-Forwarded-Host; a request
// with two Host headers is refused. The suite's service has no PUBLIC_URL and listens on
// 127.0.0.1:<port>, so its origin is the base URL the tests call it at.

const base = () => inject("baseUrl");
const EVIL = { Host: "evil.example", "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https" };
const get = (path: string, headers: Record<string, string> = {}) =>
  send({ method: "GET", path, headers: { ...EVIL, ...headers } });

describe("absolute URLs with Host: evil.example", () => {
  test("the paging links of a list are on the configured origin", async () => {
    const driver = await createDriver("sandbox", apps().main.sandbox);
    for (let i = 0; i < 2; i++) await addVehicle("sandbox", driver.accessToken, { deviceId: uniqueDevice() });
    const res = await get("/sandbox/api/vehicle/?searchLimit=1", { Authorization: `Bearer ${driver.accessToken}` });
    expect(res.status, res.text).toBe(200);
    const next = (res.body as { actions: { name: string; uri: string }[] }).actions.find((a) => a.name === "next");
    expect(next?.uri).toBe(`${base()}/sandbox/api/vehicle/?searchLimit=1&searchOffset=1`);
    expect(res.text).not.toContain("evil.example");
  });

  test("the OAuth metadata's issuer and endpoints, both environments", async () => {
    for (const [path, issuer] of [
      ["/.well-known/oauth-authorization-server", base()],
      ["/.well-known/oauth-authorization-server/sandbox", `${base()}/sandbox`],
    ] as const) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ issuer, token_endpoint: `${issuer}/oauth/token` });
      expect(res.text).not.toContain("evil.example");
    }
  });

  test("the OpenAPI document's server", async () => {
    const res = await get("/sandbox/api/openapi.json");
    expect(res.status).toBe(200);
    expect((res.body as { servers: { url: string }[] }).servers[0]!.url).toBe(`${base()}/sandbox/api`);
    expect(res.text).not.toContain("evil.example");
  });

  test("the API reference's examples", async () => {
    const res = await get("/docs");
    expect(res.status).toBe(200);
    expect(res.text).toContain(`${base()}/sandbox/oauth/token`);
    expect(res.text).not.toContain("evil.example");
  });

  test("/api/auth/signin and next-auth's providers: callback and sign-in URLs", async () => {
    for (const path of ["/api/auth/signin", "/api/auth/signin?callbackUrl=%2Fmap", "/api/partner-auth/signin"]) {
      const res = await get(path);
      expect(res.status, path).toBeLessThan(500);
      const location = String(res.headers.location ?? "");
      expect(location, path).not.toContain("evil.example");
      expect(decodeURIComponent(location), path).not.toContain("evil.example");
    }
    const providers = await get("/api/auth/providers");
    expect(providers.status).toBe(200);
    expect(providers.text).toContain(base());
    expect(providers.text).not.toContain("evil.example");
  });
});

/** Sends a request exactly as written (two Host lines cannot be said through node:http's client) and reads the answer to the end. */
function raw(text: string): Promise<Raw> {
  const url = new URL(base());
  return new Promise((resolve, reject) => {
    // Written, not ended: a half-closed connection may lose an answer still being made. Connection: close ends it.
    const socket = net.connect(Number(url.port), url.hostname, () => socket.write(text));
    const chunks: Buffer[] = [];
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", reject);
    socket.on("close", () => {
      const all = Buffer.concat(chunks).toString("utf8");
      const [head, ...rest] = all.split("\r\n\r\n");
      const lines = head!.split("\r\n");
      const headers = Object.fromEntries(
        lines.slice(1).map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
      );
      let body = rest.join("\r\n\r\n");
      if (/chunked/i.test(headers["transfer-encoding"] ?? "")) body = dechunk(body);
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        parsed = undefined;
      }
      resolve({ status: Number(lines[0]!.split(" ")[1]), headers, text: body, body: parsed });
    });
  });
}

function dechunk(body: string): string {
  let out = "";
  let rest = body;
  for (;;) {
    const at = rest.indexOf("\r\n");
    const size = parseInt(rest.slice(0, at), 16);
    if (!size) return out;
    out += rest.slice(at + 2, at + 2 + size);
    rest = rest.slice(at + 2 + size + 2);
  }
}

const twoHosts = (method: string, path: string, extra = "") =>
  `${method} ${path} HTTP/1.1\r\nHost: ${new URL(base()).host}\r\nHost: evil.example\r\nConnection: close\r\n${extra}\r\n`;

describe("a request with two Host headers → 400", () => {
  test("on an API path: the API's error body", async () => {
    const res = await raw(twoHosts("GET", "/sandbox/api/vehicle/?searchLimit=1"));
    expect(res.status).toBe(400);
    expect(apiErrorProblem(res)).toBeNull();
    expect(res.body).toMatchObject({ error: { errorCode: "VALIDATION" } });
  });

  test("at the token endpoint: an RFC 6749 body", async () => {
    const body = "grant_type=client_credentials";
    const res = await raw(
      twoHosts(
        "POST",
        "/sandbox/oauth/token",
        `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n`,
      ) + body,
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_request" });
  });

  test("on a page: text", async () => {
    const res = await raw(twoHosts("GET", "/docs"));
    expect(res.status).toBe(400);
    expect(res.headers["content-type"]).toMatch(/^text\/plain/);
  });

  test("one Host header is served as always", async () => {
    const res = await raw(
      `GET /api/health/live HTTP/1.1\r\nHost: ${new URL(base()).host}\r\nConnection: close\r\n\r\n`,
    );
    expect(res.status).toBe(200);
  });
});
