import os from "node:os";
import { randomBytes } from "node:crypto";
import { Logger, run, runMigrations, type Runner } from "graphile-worker";
import { connectionUrl } from "@/db/client";
import { env } from "@/server/env";
import { childLogger } from "@/server/log";
import { enqueue } from "./attempts";
import { closeEmailTransport } from "./email";
import { processDeliveries } from "./process";
import { findStranded, releaseOwnLeases } from "./queries";

// The durable delivery queue: graphile-worker jobs in PostgreSQL, woken by LISTEN/NOTIFY. A
// statement-level trigger on notification_deliveries (migration 0006) adds one `deliver` job
// per 100 inserted rows in the inserting transaction; retries are `deliver` jobs with a run_at.
// The rows themselves stay the truth: a job only names rows, the claim (a lease in
// delivery_jobs) decides who sends them, and a sweeper re-queues rows whose worker vanished.

const log = childLogger({ component: "queue" });
// graphile-worker's own lines on ours; its "info" is a line per job ("Completed task …"): debug.
const logger = new Logger((scope) => (level, message, meta) => {
  const fields = { scope, ...(meta?.error === undefined ? {} : { err: meta.error }) };
  if (level === "error") log.error(fields, message);
  else if (level === "warning") log.warn(fields, message);
  else if (level === "info") log.debug(fields, message);
  else log.trace(fields, message);
});

function queueOptions() {
  const { url, embedded } = connectionUrl();
  // The embedded server shares one session among all connections: named statements would collide.
  // graphile-worker needs a connection per running job (get and complete) plus its listener.
  return { connectionString: url, noPreparedStatements: embedded, logger, maxPoolSize: embedded ? 3 : Math.min(env().DELIVERY_CONCURRENCY + 2, 20) };
}

/** Installs or upgrades graphile-worker's own schema (its migrations, in graphile_worker.migrations). */
export async function migrateQueue(): Promise<void> {
  await runMigrations(queueOptions());
}

export type DeliveryQueue = {
  workerId: string;
  /** Lets the jobs in hand finish, then gives back what is still leased. */
  stop(): Promise<void>;
  /** Gives back at once every delivery this worker holds, sends in flight or not (at-least-once). */
  abandon(): Promise<void>;
};

export async function startDeliveryQueue(): Promise<DeliveryQueue> {
  const config = env();
  const workerId = `${os.hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
  const leaseSeconds = config.DELIVERY_LEASE_SECONDS;
  const runner: Runner = await run({
    ...queueOptions(),
    concurrency: config.DELIVERY_CONCURRENCY,
    noHandleSignals: true,
    // Retries scheduled for later are found by polling; new work arrives by NOTIFY.
    pollInterval: 1000,
    taskList: {
      deliver: async (payload) => {
        const ids = ((payload as { ids?: unknown }).ids ?? []) as unknown[];
        await processDeliveries(ids.map(Number).filter(Number.isFinite), { workerId, leaseSeconds });
      },
    },
  });

  let sweeping = false;
  const sweep = async () => {
    if (sweeping) return;
    sweeping = true;
    try {
      const ids = await findStranded({ olderThanSeconds: leaseSeconds, limit: 1000 });
      if (ids.length > 0) {
        log.info({ count: ids.length }, "delivery sweeper re-queued stranded deliveries");
        await enqueue(ids);
      }
    } catch (error) {
      log.error({ err: error }, "delivery sweeper failed");
    } finally {
      sweeping = false;
    }
  };
  void sweep();
  const timer = setInterval(() => void sweep(), config.DELIVERY_SWEEP_SECONDS * 1000);
  timer.unref();

  // Whatever this worker still holds goes back, queued again, so that another worker sends it
  // now rather than when the lease runs out.
  const giveBack = async () => {
    const released = await releaseOwnLeases(workerId).catch((error: unknown) => (log.error({ err: error }, "releasing delivery leases failed"), []));
    if (released.length > 0) await enqueue(released).catch((error: unknown) => log.error({ err: error }, "re-queueing released deliveries failed"));
  };
  let stopped: Promise<void> | null = null;
  return {
    workerId,
    stop: () =>
      (stopped ??= (async () => {
        clearInterval(timer);
        // graphile-worker stops taking jobs and waits for those in hand (each ends within the
        // 10 s send timeout and records what it did).
        await runner.stop();
        await giveBack();
        await closeEmailTransport();
      })()),
    abandon: giveBack,
  };
}
