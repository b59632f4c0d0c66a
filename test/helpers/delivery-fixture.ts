import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { inject } from "vitest";
import { openEmbeddedDatabase } from "@/db/embedded/embedded-database";
import { seedEmbeddedDataDir } from "./embedded-template";
import { ensureTestCa, type TestCa } from "./https-receiver";
import { root, runScript, scriptArgs } from "./processes";
import { freshDatabase } from "./fresh-database";

// Delivery tests run their own worker processes (to give them SMTP servers, kill them, run two)
// against a database of their own, so the suite's service worker never takes their jobs: a
// fresh database on the PostgreSQL server when the suite runs on one, else an embedded database
// served by the test process itself (workers connect to it as `npm start`'s would).

export type DeliveryDb = {
  sql: postgres.Sql;
  ca: TestCa;
  dir: string;
  /** Environment for a worker process on this database. */
  workerEnv(extra?: Record<string, string>): NodeJS.ProcessEnv;
  close(): Promise<void>;
};

export async function deliveryDatabase(name: string): Promise<DeliveryDb> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `wayline-${name}-`));
  const ca = ensureTestCa(path.join(dir, "ca"));
  const base: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    DATA_DIR: path.join(dir, "data"),
    DELIVERY_CA_FILE: ca.certFile,
    DELIVERY_ALLOWED_HOSTS: "127.0.0.1",
    DELIVERY_RETRY_SCALE: "0.001",
    LOG_LEVEL: "warn",
  };
  delete base.SMTP_URL;
  if (!inject("embedded")) {
    const database = await freshDatabase(inject("databaseUrl"), name);
    const sql = postgres(database.url, { max: 4, onnotice: () => {} });
    return {
      sql,
      ca,
      dir,
      workerEnv: (extra = {}) => ({ ...base, DATABASE_URL: database.url, ...extra }),
      async close() {
        await sql.end({ timeout: 5 });
        await database.drop();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  fs.mkdirSync(path.join(dir, "data"));
  seedEmbeddedDataDir(path.join(dir, "data"));
  const embedded = await openEmbeddedDatabase(path.join(dir, "data"));
  const sql = postgres(embedded.url, { max: 2, prepare: false, fetch_types: false, onnotice: () => {} });
  const env = { ...base };
  delete env.DATABASE_URL;
  return {
    sql,
    ca,
    dir,
    workerEnv: (extra = {}) => ({ ...env, ...extra }),
    async close() {
      await sql.end({ timeout: 5 });
      await embedded.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type WorkerProcess = { child: ChildProcess; pid: number; output(): string; ready: Promise<void> };

/** `npm run worker`'s entry point, without npm, so the pid is the worker's own. */
export function startWorkerProcess(env: NodeJS.ProcessEnv): WorkerProcess {
  let output = "";
  const child = spawn(process.execPath, scriptArgs("worker.ts"), {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d.toString();
      if (output.includes("Wayline worker running")) resolve();
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code, signal) =>
      reject(new Error(`worker exited (${code ?? signal}) before it was ready:\n${output}`)),
    );
  });
  ready.catch(() => {});
  return { child, pid: child.pid!, output: () => output, ready };
}

export async function stopWorkerProcess(worker: WorkerProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  const { child } = worker;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  process.kill(worker.pid, signal);
  const timer = setTimeout(
    () => child.exitCode === null && child.signalCode === null && process.kill(worker.pid, "SIGKILL"),
    15_000,
  );
  await exited;
  clearTimeout(timer);
}

/** A partner app made by the real `npm run app:create` (which also applies the migrations). */
export async function seedApp(db: DeliveryDb): Promise<{ appId: number; signingSecret: string; clientId: string }> {
  const { stdout } = await runScript("app-create.ts", ["--name", "Delivery test app", "--json"], db.workerEnv());
  const app = JSON.parse(stdout) as { sandbox: { clientId: string }; signingSecret: string };
  const [row] = await db.sql<
    { app_id: number }[]
  >`select app_id from app_credentials where client_id = ${app.sandbox.clientId}`;
  return { appId: row!.app_id, signingSecret: app.signingSecret, clientId: app.sandbox.clientId };
}

export type DeliverySpec =
  | { type: "HTTP_POST"; postUrl: string; postHeaders?: Record<string, string>; oauth2?: Record<string, string> }
  | { type: "EMAIL"; recipient: string; subscriberSubject?: string; subscriberContent?: string };

/** A system-scope subscription (no vehicle needed) with the given deliveries. */
export async function createSubscription(
  sql: postgres.Sql,
  { appId, clientId, deliveries }: { appId: number; clientId: string; deliveries: DeliverySpec[] },
): Promise<{ subscriptionId: number; deliveryIds: number[] }> {
  const [sub] = await sql<
    { id: number }[]
  >`insert into subscriptions (environment, app_id, client_id, scope, type, notification_period)
    values ('sandbox', ${appId}, ${clientId}, 'SYSTEM', 'WAYPOINT', 'CONTINUOUS') returning id`;
  const deliveryIds: number[] = [];
  for (const [position, d] of deliveries.entries()) {
    const [row] =
      d.type === "HTTP_POST"
        ? await sql<
            { id: number }[]
          >`insert into subscription_deliveries (subscription_id, position, type, post_url, post_headers,
            oauth2) values (${sub!.id}, ${position}, 'HTTP_POST', ${d.postUrl},
            ${d.postHeaders ? sql.json(d.postHeaders) : null}, ${d.oauth2 ? sql.json(d.oauth2) : null})
            returning id`
        : await sql<{ id: number }[]>`insert into subscription_deliveries (subscription_id, position, type, recipient,
            subscriber_subject, subscriber_content) values (${sub!.id}, ${position}, 'EMAIL', ${d.recipient},
            ${d.subscriberSubject ?? null}, ${d.subscriberContent ?? null}) returning id`;
    deliveryIds.push(row!.id);
  }
  return { subscriptionId: sub!.id, deliveryIds };
}

/**
 * `count` WAYPOINT notifications of a subscription and their PENDING rows, as ingest writes them:
 * one transaction, one INSERT for all the notification_deliveries rows.
 */
export async function insertNotifications(
  sql: postgres.Sql,
  {
    appId,
    clientId,
    subscriptionId,
    deliveryIds,
    count = 1,
  }: { appId: number; clientId: string; subscriptionId: number; deliveryIds: number[]; count?: number },
): Promise<number[]> {
  return sql.begin(async (tx) => {
    const rows = await tx<{ id: string }[]>`
      insert into notifications (environment, subscription_id, app_id, vehicle_id, type, event_at, body)
      select 'sandbox', ${subscriptionId}, ${appId}, 1000 + g, 'WAYPOINT', now(),
        json_build_object('minimumTime', 0, 'notificationPeriod', 'CONTINUOUS', 'creatorClientId', ${clientId}::text,
          'recordedWaypoint', json_build_object('timestamp', to_char(now() at time zone 'utc',
            'YYYYMMDD"T"HH24MISS"+0000"'), 'latitude', 39.96 + g / 1000.0, 'longitude', -82.99))
      from generate_series(1, ${count}) g
      returning id`;
    const ids = rows.map((r) => Number(r.id));
    await tx`insert into notification_deliveries (notification_id, delivery_id)
      select n, d from unnest(${`{${ids.join(",")}}`}::bigint[]) n cross join unnest(${`{${deliveryIds.join(",")}}`}::int[]) d`;
    return ids;
  });
}

export async function waitFor<T>(
  probe: () => Promise<T | null | undefined | false>,
  { timeoutMs = 20_000, intervalMs = 100, what = "condition" } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
