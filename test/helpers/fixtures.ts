import { expect, inject } from "vitest";
import type { SharedApp, TestApp } from "@/test/integration/global-setup";
import { api, sha256, testSql, uniqueName, type Env, type Reply } from "./api";
import { runScript, serviceEnv } from "./processes";

// Shared arrangements and assertions of the issue-2 integration tests (accounts, vehicles,
// OAuth, errors). Everything goes through real HTTP, the operator CLI, or — only for states HTTP
// cannot reach in test time — direct SQL.

export const ENVS: Env[] = ["sandbox", "production"];

/** The wire DateTime (docs/api.md#datetime): always UTC, never "Z". */
export const DATE_TIME = /^\d{8}T\d{6}\+0000$/;

export const apps = () => inject("apps");

/**
 * A partner app of its own, made with the operator CLI like the ones of global-setup: for tests
 * that need exact list contents, which the shared apps cannot give while other files run. On the
 * main shared app, or on the one `on` names (a pool app: test/helpers/pool.ts).
 */
export async function createPartnerApp(
  name = uniqueName("app"),
  opts: { dataProvider?: boolean; redirectUris?: string[]; on?: SharedApp } = {},
): Promise<TestApp> {
  const on = opts.on ?? { dataDir: inject("dataDir"), databaseUrl: inject("databaseUrl") };
  const env = serviceEnv({
    port: 0,
    dataDir: on.dataDir,
    databaseUrl: inject("embedded") ? undefined : on.databaseUrl,
  });
  const uris = ["https://partner.example/callback", ...(opts.redirectUris ?? [])].flatMap((uri) => [
    "--redirect-uri",
    uri,
  ]);
  const args = ["--name", name, ...uris, "--json", ...(opts.dataProvider ? ["--data-provider"] : [])];
  const { stdout } = await runScript("app-create.ts", args, env);
  return JSON.parse(stdout) as TestApp;
}

/** Asserts the API's error response (docs/api.md#errors): status, JSON content type, the exact body shape. */
export function expectApiError(reply: Reply, status: number, errorCode: string) {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
  expect(Object.keys(reply.body ?? {})).toEqual(["error"]);
  const error = reply.body.error;
  expect(Object.keys(error).sort()).toEqual(["detail", "errorCode", "errorDisplay", "fieldErrors", "httpStatus"]);
  expect(error).toMatchObject({ httpStatus: status, errorCode });
  expect(typeof error.detail).toBe("string");
  expect(error.detail.length).toBeGreaterThan(0);
  expect(typeof error.errorDisplay).toBe("string");
  expect(Array.isArray(error.fieldErrors)).toBe(true);
  for (const field of error.fieldErrors) {
    expect(Object.keys(field).sort()).toEqual(["errorCode", "errorDisplay", "fieldName"]);
    expect(field.errorDisplay.length).toBeGreaterThan(0);
  }
  return error as {
    httpStatus: number;
    errorCode: string;
    detail: string;
    errorDisplay: string;
    fieldErrors: { fieldName: string; errorCode: string }[];
  };
}

/** A 400 VALIDATION whose fieldErrors name exactly these fields with these codes. */
export function expectFieldErrors(reply: Reply, expected: Record<string, string>) {
  const error = expectApiError(reply, 400, "VALIDATION");
  expect(Object.fromEntries(error.fieldErrors.map((f) => [f.fieldName, f.errorCode]))).toEqual(expected);
}

/** The RFC 6749 error of the token endpoint, with Cache-Control: no-store. */
export function expectOAuthError(reply: Reply, status: number, error: string) {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
  expect(reply.headers.get("cache-control")).toBe("no-store");
  expect(reply.body).toEqual({ error, error_description: expect.any(String) });
}

/** Adds a vehicle through the API; fails the test with the service's answer when it cannot. */
export async function addVehicle(env: Env, token: string, body: Record<string, unknown> = {}) {
  const res = await api(env).post("/vehicle/", body, token);
  expect(res.status, res.text).toBe(200);
  return res.body.vehicle as { vehicleId: number; accountId: number; deviceId: string | null; [key: string]: unknown };
}

/** A device serial no other test uses. */
export const uniqueDevice = () => uniqueName("dev").replace(/[^A-Za-z0-9._:-]/g, "-");

// Direct SQL, only for what HTTP cannot arrange in test time.

export async function expireAccessToken(token: string) {
  const rows =
    await testSql()`update oauth_tokens set access_expires_at = now() - interval '1 minute' where access_hash = ${sha256(token)} returning id`;
  expect(rows.length).toBe(1);
}

export async function expireCode(code: string) {
  const rows =
    await testSql()`update oauth_codes set expires_at = now() - interval '1 minute' where code_hash = ${sha256(code)} returning id`;
  expect(rows.length).toBe(1);
}

/** How many rows of `table` contain `value` anywhere in their text form. */
export async function rowsContaining(
  table: "oauth_tokens" | "oauth_codes" | "app_credentials",
  value: string,
): Promise<number> {
  const [row] =
    await testSql()`select count(*)::int as n from ${testSql()(table)} t where position(${value} in t::text) > 0`;
  return (row as { n: number }).n;
}
