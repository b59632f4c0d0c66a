import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { bundlePath, bundlesAreCurrent, COMPILED_SCRIPTS } from "../../scripts/lib/compile.mjs";
import { seedEmbeddedDataDir } from "./embedded-template";
import { ensureTestCa } from "./https-receiver";

export const root = path.resolve(import.meta.dirname, "..", "..");

/**
 * The node arguments that run `scripts/<script>`: its compiled bundle in .build/, what the npm
 * scripts run (scripts/lib/compile.mjs). The test runs' global setups compile before any process
 * starts; each launch checks again (a stat of each source), so a benchmark, or a file run after a
 * source changed, never starts an old bundle.
 */
export function scriptArgs(script: string): string[] {
  if (!COMPILED_SCRIPTS.includes(script))
    throw new Error(`scripts/${script} is not compiled (scripts/lib/compile.mjs)`);
  if (!bundlesAreCurrent()) {
    const run = spawnSync(process.execPath, [path.join(root, "scripts", "compile.mjs")], {
      cwd: root,
      stdio: "inherit",
    });
    if (run.status !== 0) throw new Error("compiling the scripts failed (node scripts/compile.mjs)");
  }
  return [bundlePath(script)];
}

/**
 * The V8 flags `npm start` gives node (package.json's start script: the words between `node` and the
 * bundle it runs): its larger young generation (docs/operations.md#memory). The benchmarks start the
 * service with them (bench/lib/setup.ts), as does the test that checks they reach every HTTP process;
 * other tests' services run on Node's defaults: a test's service lives for seconds, and most of its
 * work is loading modules on first requests, which cost about a fifth more CPU with the larger young
 * generation (docs/testing.md#time-budget).
 */
export const serviceV8Flags: string[] = (() => {
  const start: string = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).scripts.start;
  const bundle = path.relative(root, bundlePath("start.ts")).split(path.sep).join("/");
  const command = start.split("&&").find((part) => part.includes(bundle));
  if (!command) throw new Error(`package.json's start script does not run ${bundle}`);
  const words = command.trim().split(/\s+/);
  return words.slice(words.indexOf("node") + 1, words.indexOf(bundle));
})();

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address() as net.AddressInfo;
      server.close(() => resolve(address.port));
    });
  });
}

export type ServiceEnv = NodeJS.ProcessEnv;

/**
 * Environment for a service under test: loopback, its own data dir, and the given database. The
 * delivery worker is off unless asked for (WORKER: "on"): the suite's shared service keeps its
 * notifications PENDING for the tests that read them; delivery tests run workers of their own.
 * Deliveries may reach 127.0.0.1 only, trusting the test CA kept in the data dir.
 */
export function serviceEnv({
  port,
  dataDir,
  databaseUrl,
  seedDemo = false,
}: {
  port: number;
  dataDir: string;
  databaseUrl?: string;
  seedDemo?: boolean;
}): ServiceEnv {
  const env: ServiceEnv = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    SEED_DEMO: seedDemo ? "1" : "0",
    NODE_ENV: "production",
    WORKER: "off",
    DELIVERY_ALLOWED_HOSTS: "127.0.0.1",
    DELIVERY_CA_FILE: path.join(dataDir, "test-ca", "ca.pem"),
    DELIVERY_RETRY_SCALE: "0.001",
    // The access log written within half a second, so its tests wait that long, not 5 s.
    ACCESS_LOG_FLUSH_SECONDS: "0.5",
    // One process, as the tests expect one pid; the fleet tests ask for more.
    WEB_CONCURRENCY: "1",
    // No device gateway: its ports are fixed (a front door's `npm start` on this machine may hold
    // them). A test that needs one runs it in its own process, or asks for it with an offset of its own.
    DEVICE_GATEWAY: "off",
  };
  delete env.SMTP_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  return env;
}

/** The app's process as spawned: not yet known to be listening. */
export type SpawnedApp = { child: ChildProcess; output: () => string };

/**
 * Spawns the app's process: `npm start`'s entry point (without npm, so the pid is the server's
 * own) with `env` as its whole environment (its port, data dir and database are the caller's), and
 * returns at once, without waiting for it to listen (waitForHealth does). It stops nothing: the
 * caller stops it with stopProcess. nodeFlags go to node before the script (e.g. serviceV8Flags, or
 * --cpu-prof, which NODE_OPTIONS may not carry); the HTTP processes it forks inherit them.
 */
export function spawnApp(env: ServiceEnv, nodeFlags: string[] = []): SpawnedApp {
  let output = "";
  const child = spawn(process.execPath, [...nodeFlags, ...scriptArgs("start.ts")], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  return { child, output: () => output };
}

/** The service's start line ("Wayline is running at http://localhost:PORT") names the port of `baseUrl`. */
function runningOn(output: string, baseUrl: string): boolean {
  const port = new URL(baseUrl).port;
  return [...output.matchAll(/Wayline is running at \S+?:(\d+)\s/g)].some((m) => m[1] === port);
}

export async function waitForHealth(
  baseUrl: string,
  child: ChildProcess,
  output: () => string,
  timeoutMs = 180_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}:\n${output()}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      // Healthy, and ours: another service that took the port would answer too, until our child's
      // exit (EADDRINUSE) is seen; only ours prints that it is running on this port (scripts/start.ts).
      if (res.status === 200 && runningOn(output(), baseUrl)) return;
    } catch {
      // not listening yet
    }
    // A start takes seconds; a short poll finds it up within 50 ms of listening.
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`service not healthy after ${timeoutMs} ms:\n${output()}`);
}

// Node's fetch keeps each connection open for about 4 s after its last answer, and a service told
// to stop drains: it waits for the connections it accepted to end (docs/operations.md#stopping-a-process),
// so every stop would cost those seconds. Before stopping one, the test process lets go of its idle
// connections: the global dispatcher of fetch (kept by Node under this symbol, the one the undici
// package's setGlobalDispatcher sets) is replaced by a fresh one of its kind, and the old one closed,
// which ends its idle connections at once and lets any request in flight finish first.
const GLOBAL_DISPATCHER = Symbol.for("undici.globalDispatcher.1");
type Dispatcher = { constructor: new () => Dispatcher; close(): Promise<void> };

function closeIdleConnections(): void {
  const holder = globalThis as unknown as Record<symbol, Dispatcher | undefined>;
  const current = holder[GLOBAL_DISPATCHER];
  if (!current || typeof current.close !== "function") return;
  holder[GLOBAL_DISPATCHER] = new current.constructor();
  current.close().catch(() => {});
}

/** Stops a process we started, by its pid, and waits for it to exit. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  closeIdleConnections();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Runs a CLI script to completion; resolves with its stdout, rejects with its stderr. */
export function runScript(
  script: string,
  args: string[],
  env: ServiceEnv,
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...scriptArgs(script), ...args], {
      cwd: root,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("exit", (code) =>
      code === 0 ? resolve({ stdout, stderr }) : reject(new Error(`${script} exited ${code}: ${stderr}`)),
    );
  });
}

/** An app started by startApp, healthy, in a data dir of its own. */
export type RunningApp = {
  baseUrl: string;
  dataDir: string;
  env: ServiceEnv;
  pid: number;
  /** The running process (replaced by restart()). */
  child(): ChildProcess;
  stop(): Promise<void>;
  /**
   * Stops the app's process by its pid and spawns it again on the same data dir (a second `npm start`),
   * with `extraEnv` added to its environment from then on (e.g. the delivery worker turned on).
   */
  restart(extraEnv?: Record<string, string>): Promise<void>;
  output(): string;
};

/**
 * Starts the app (spawnApp) in a fresh data dir on a free port and waits until it answers healthy:
 * on the database at `databaseUrl` when given (made and dropped by the caller), else on an embedded
 * database of its own in the data dir; the app migrates either at start, as `npm start` does.
 * stop() stops the process by its pid and removes the data dir (never the caller's database).
 */
export async function startApp(opts: {
  name: string;
  databaseUrl?: string;
  seedDemo?: boolean;
  port?: number;
  extraEnv?: Record<string, string>;
  nodeFlags?: string[];
  /** Where the helper finds a port when none is given (freePort); port-in-use.test.ts hands it a taken one. */
  choosePort?: () => Promise<number>;
}): Promise<RunningApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `wayline-${opts.name}-`));
  if (!opts.databaseUrl) seedEmbeddedDataDir(dataDir);
  const choosePort = opts.choosePort ?? freePort;
  let port = opts.port ?? (await choosePort());
  ensureTestCa(path.join(dataDir, "test-ca"));
  const envOn = (port: number) => ({
    ...serviceEnv({ port, dataDir, databaseUrl: opts.databaseUrl, seedDemo: opts.seedDemo }),
    ...opts.extraEnv,
  });
  let env = envOn(port);
  let spawned = spawnApp(env, opts.nodeFlags);
  const stop = async () => {
    await stopProcess(spawned.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  // A port freePort() found free may be taken before the service binds it (by another file's process, or
  // as an outgoing connection's ephemeral port: a CI run lost a start so). The service then exits at once
  // with EADDRINUSE (scripts/start.ts), and starts again on another port; a port the caller chose is kept.
  for (let attempt = 1; ; attempt++) {
    try {
      await waitForHealth(`http://127.0.0.1:${port}`, spawned.child, spawned.output);
      break;
    } catch (error) {
      const portTaken = spawned.child.exitCode !== null && spawned.output().includes("EADDRINUSE");
      if (opts.port !== undefined || !portTaken || attempt === 3) {
        await stop();
        throw error;
      }
      port = await choosePort();
      env = envOn(port);
      spawned = spawnApp(env, opts.nodeFlags);
    }
  }
  const baseUrl = `http://127.0.0.1:${port}`;
  const running: RunningApp = {
    baseUrl,
    dataDir,
    env,
    pid: spawned.child.pid!,
    child: () => spawned.child,
    stop,
    output: () => spawned.output(),
    async restart(extraEnv = {}) {
      await stopProcess(spawned.child);
      Object.assign(env, extraEnv);
      spawned = spawnApp(env, opts.nodeFlags);
      running.pid = spawned.child.pid!;
      await waitForHealth(baseUrl, spawned.child, spawned.output);
    },
  };
  return running;
}

/** The service's logged errors (server/platform/log.ts writes one JSON object a line), for benchmarks to report. */
export function loggedErrors(output: string): string[] {
  return output.split("\n").filter((line) => line.includes('"level":"error"'));
}
