import { execFileSync } from "node:child_process";
import os from "node:os";
import { startApp, runScript, serviceV8Flags, type ServiceEnv } from "../../test/helpers/processes";

// What every benchmark needs before it measures: a PostgreSQL database, and a driver account
// made the way a partner makes one (app, client token, account, code exchange).

/**
 * The service as `npm start` runs it, with its V8 flags (package.json): what the benchmarks measure. The
 * tests' services run on Node's defaults (test/helpers/processes.ts says why). BENCH_CPU_PROF=<dir>:
 * each service writes a V8 CPU profile there when it stops (open it in Chrome's DevTools), to see
 * where a figure's time goes; a profiled run's figures are not the benchmark's.
 */
export function launchBenchService(opts: Parameters<typeof startApp>[0]): ReturnType<typeof startApp> {
  const dir = process.env.BENCH_CPU_PROF;
  const profile = dir ? ["--cpu-prof", `--cpu-prof-dir=${dir}`] : [];
  return startApp({ ...opts, nodeFlags: [...serviceV8Flags, ...profile, ...(opts.nodeFlags ?? [])] });
}

/** DATABASE_URL when given, else a fresh database on 127.0.0.1 that drop() removes. */
export function benchDatabase(prefix: string): { url: string; drop(): void } {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, drop: () => {} };
  const name = `${prefix}_${Date.now()}`;
  execFileSync("createdb", ["-h", "127.0.0.1", "-U", "postgres", name]);
  return {
    url: `postgres://postgres@127.0.0.1:5432/${name}`,
    drop: () => execFileSync("dropdb", ["-h", "127.0.0.1", "-U", "postgres", "--if-exists", name]),
  };
}

export type BenchDriver = {
  /** HTTP Basic credentials and content type for the production token endpoint. */
  form: Record<string, string>;
  clientToken: string;
  accountId: number;
  /** Authorization header of the driver's user token. */
  auth: Record<string, string>;
  /** The driver's sign-in to the driver site (production). */
  username: string;
  password: string;
  /** A vehicle of the driver's, naming `deviceId` when given (a tracker's IMEI, a phone app's id). */
  newVehicle(label: string, deviceId?: string): Promise<number>;
};

async function json<T>(res: Response, what: string): Promise<T> {
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

export async function benchDriver(
  base: string,
  env: ServiceEnv,
  name: string,
  opts: { dataProvider?: boolean } = {},
): Promise<BenchDriver> {
  const app = JSON.parse(
    (
      await runScript(
        "app-create.ts",
        ["--name", name, ...(opts.dataProvider ? ["--data-provider"] : []), "--json"],
        env,
      )
    ).stdout,
  ) as {
    production: { clientId: string; clientSecret: string };
  };
  const basic = `Basic ${Buffer.from(`${app.production.clientId}:${app.production.clientSecret}`).toString("base64")}`;
  const form = { "Content-Type": "application/x-www-form-urlencoded", Authorization: basic };
  const token = (body: string) => fetch(`${base}/oauth/token`, { method: "POST", headers: form, body });

  const { access_token: clientToken } = await json<{ access_token: string }>(
    await token("grant_type=client_credentials"),
    "client_credentials",
  );
  const username = `${name}.${Date.now()}`;
  const password = "bench-password";
  const { account } = await json<{ account: { id: number; accessToken: { code: string } } }>(
    await fetch(`${base}/v1/api/account/`, {
      method: "POST",
      headers: { Authorization: `Bearer ${clientToken}`, "Content-Type": "application/json" },
      body: JSON.stringify({ firstName: "Bench", lastName: "Driver", username, password }),
    }),
    "account create",
  );
  const { access_token: userToken } = await json<{ access_token: string }>(
    await token(`grant_type=authorization_code&code=${account.accessToken.code}`),
    "code exchange",
  );
  const auth = { Authorization: `Bearer ${userToken}` };
  const newVehicle = async (label: string, deviceId?: string) =>
    (
      await json<{ vehicle: { vehicleId: number } }>(
        await fetch(`${base}/v1/api/vehicle/`, {
          method: "POST",
          headers: { ...auth, "Content-Type": "application/json" },
          body: JSON.stringify(deviceId === undefined ? { label } : { label, deviceId }),
        }),
        "vehicle create",
      )
    ).vehicle.vehicleId;
  return { form, clientToken, accountId: account.id, auth, username, password, newVehicle };
}

/** The driver site's sign-in (production), as next-auth's credentials flow: the session's Cookie header. */
export async function driverSession(base: string, username: string, password: string): Promise<string> {
  const cookies = new Map<string, string>();
  const remember = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const at = pair!.indexOf("=");
      cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  };
  const cookie = () => [...cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const csrf = await fetch(`${base}/api/auth/csrf`);
  remember(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${base}/api/auth/callback/password`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie() },
    body: new URLSearchParams({
      environment: "production",
      username,
      password,
      csrfToken,
      callbackUrl: "/",
      json: "true",
    }),
  });
  remember(res);
  if (![...cookies.keys()].some((k) => k.includes("session-token"))) throw new Error(`sign-in failed: ${res.status}`);
  return cookie();
}

/** The machine's load averages, printed around each run: a shared host's figures say little. */
export const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(", ");

/**
 * The rate-limit settings a benchmark's service starts with. By default the limits are off, so a
 * benchmark measures the route and not the metering. BENCH_RATE_LIMITS=on keeps the metering
 * statement on every request but with budgets no benchmark reaches: the cost of authenticating
 * and metering in one statement (server/api-auth/bearer.ts) is then part of the figure.
 */
export function benchRateLimits(): Record<string, string> {
  if (process.env.BENCH_RATE_LIMITS !== "on") return { RATE_LIMITS: "off" };
  const unreachable = "1000000/1s"; // the most the configuration accepts
  return {
    RATE_LIMITS: "on",
    RATE_LIMIT_API_TOKEN: unreachable,
    RATE_LIMIT_API_CLIENT: unreachable,
    RATE_LIMIT_API_ADDRESS: unreachable,
    RATE_LIMIT_OAUTH_CLIENT: unreachable,
    RATE_LIMIT_OAUTH_ADDRESS: unreachable,
  };
}
