import { createHash } from "node:crypto";
import { inject } from "vitest";
import postgres from "postgres";

// A small HTTP client for the integration suite: real requests to the running service.

export type Env = "sandbox" | "production";
export const apiBase = (env: Env) => `${inject("baseUrl")}${env === "sandbox" ? "/sandbox/api" : "/v1/api"}`;

export type Reply<T = any> = { status: number; headers: Headers; body: T; text: string };

export async function request<T = any>(
  method: string,
  url: string,
  init: { token?: string; json?: unknown; body?: string; headers?: Record<string, string> } = {},
): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  let body: string | undefined = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers["Content-Type"] ??= "application/json";
  }
  const res = await fetch(url, { method, headers, body, redirect: "manual" });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

export const api = (env: Env) => ({
  get: <T = any>(path: string, token?: string) => request<T>("GET", apiBase(env) + path, { token }),
  post: <T = any>(path: string, json: unknown, token?: string) =>
    request<T>("POST", apiBase(env) + path, { token, json }),
  del: <T = any>(path: string, token?: string) => request<T>("DELETE", apiBase(env) + path, { token }),
});

export type Credentials = { clientId: string; clientSecret: string };

export function tokenUrl(env: Env | "any" = "any") {
  return `${inject("baseUrl")}${env === "sandbox" ? "/sandbox" : ""}/oauth/token`;
}

export async function tokenRequest(form: Record<string, string>, opts: { basic?: Credentials; url?: string } = {}) {
  const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" };
  if (opts.basic)
    headers.Authorization = `Basic ${Buffer.from(`${opts.basic.clientId}:${opts.basic.clientSecret}`).toString("base64")}`;
  return request("POST", opts.url ?? tokenUrl(), { body: new URLSearchParams(form).toString(), headers });
}

export async function clientToken(creds: Credentials): Promise<string> {
  const res = await tokenRequest({ grant_type: "client_credentials" }, { basic: creds });
  if (res.status !== 200) throw new Error(`client_credentials failed: ${res.status} ${res.text}`);
  return res.body.access_token as string;
}

let counter = 0;
/** A username no other test (or earlier run on the same database) uses. */
export function uniqueName(prefix = "user"): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}.${process.pid}.${counter}`;
}

export function newAccountBody(overrides: Record<string, unknown> = {}) {
  return {
    firstName: "Test",
    lastName: "Driver",
    username: uniqueName(),
    password: "correct-horse-1",
    email: "driver@example.com",
    timeZone: "America/New_York",
    zipcode: "43215",
    preferredContact: "EMAIL",
    ...overrides,
  };
}

/** Creates an account with a client token and exchanges its code: the partner flow (docs/api.md). */
export async function createDriver(env: Env, creds: Credentials, overrides: Record<string, unknown> = {}) {
  const clientTok = await clientToken(creds);
  const created = await api(env).post("/account/", newAccountBody(overrides), clientTok);
  if (created.status !== 200) throw new Error(`account create failed: ${created.status} ${created.text}`);
  const exchange = await tokenRequest(
    { grant_type: "authorization_code", code: created.body.account.accessToken.code },
    { basic: creds },
  );
  if (exchange.status !== 200) throw new Error(`code exchange failed: ${exchange.status} ${exchange.text}`);
  return {
    clientToken: clientTok,
    account: created.body.account,
    accessToken: exchange.body.access_token as string,
    refreshToken: exchange.body.refresh_token as string,
  };
}

let sql: postgres.Sql | undefined;
/** Direct database access, only to arrange states HTTP cannot reach in test time (an expired token). */
export function testSql(): postgres.Sql {
  // fetch_types: false, as every pool of ours (db/client.ts says why).
  sql ??= postgres(inject("databaseUrl"), {
    max: 1,
    prepare: !inject("embedded"),
    fetch_types: false,
    onnotice: () => {},
  });
  return sql;
}

export const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");
