import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import type postgres from "postgres";
import { connect, db, rawSql, type Connection, type Database } from "./client";
import { databaseConfig } from "./config";
import { databaseUnavailable } from "./unavailable";

// Heavy reads on a streaming replica (docs/operations.md#read-replicas). With DATABASE_REPLICA_URL
// set, the reads that scan the most (data-set and data-point lists, trips with their data, the
// driver's trip replay, the console's delivery health) run on the replica through `onReplica`;
// every write, and every other read, stays on the primary (`db()`).
//
// Three rules keep a replica's answers from surprising anyone:
// - **Lag.** Every half second this process asks the primary for its WAL position and the
//   replica for how far it has replayed. A replica more than REPLICA_MAX_LAG_SECONDS behind (or
//   one that does not answer) serves nothing until it catches up; reads go to the primary.
// - **Your own writes.** A caller who wrote (any API or site request that changes something, as
//   `noteWrite` is told) reads from the primary for REPLICA_MAX_LAG_SECONDS + 1 s after, so a
//   read right after one's own write sees it: the replica in use is never further behind than that.
//   This is kept per process; a caller whose next request is served by another process of a fleet
//   may read from the replica there, at most REPLICA_MAX_LAG_SECONDS behind.
// - **Failure.** A read whose replica connection fails (the replica went away between two checks,
//   or cancelled the query for a conflict with recovery) runs again on the primary: never a 500.

/** A database to read from: drizzle (`db`) or postgres.js (`sql`, the hot paths), on one server. */
export type ReadDatabase = { db: Database; sql: postgres.Sql };

/** Where a heavy read ran, for the metric and the tests. */
export type ReadTarget = "replica" | "primary";

export type ReplicaState =
  | { configured: false }
  | { configured: true; state: "ok" | "lagging" | "unreachable" | "starting"; lagSeconds: number | null };

type Shared = {
  pool: Connection | null;
  state: ReplicaState;
  monitor: NodeJS.Timeout | null;
  /** Caller → until when (ms since epoch) its reads stay on the primary. */
  writers: Map<string, number>;
  caller: AsyncLocalStorage<string>;
  reads: Record<ReadTarget, number>;
};

// On globalThis: Next.js bundles route modules with their own copy of this file, and one process
// must have one replica pool, one monitor and one memory of its callers' writes.
const key = Symbol.for("wayline.replica");
const shared: Shared = ((globalThis as { [key]?: Shared })[key] ??= {
  pool: null,
  state: { configured: false },
  monitor: null,
  writers: new Map(),
  caller: new AsyncLocalStorage<string>(),
  reads: { replica: 0, primary: 0 },
});

const CHECK_EVERY_MS = 500;

function replica(): Connection | null {
  const { replicaUrl } = databaseConfig();
  if (!replicaUrl) return null;
  if (!shared.pool) {
    shared.pool = connect(replicaUrl, false, 5);
    shared.state = { configured: true, state: "starting", lagSeconds: null };
    void check();
    shared.monitor = setInterval(() => void check(), CHECK_EVERY_MS);
    shared.monitor.unref();
  }
  return shared.pool;
}

/**
 * How far behind the replica is, in seconds: 0 when it has replayed everything the primary had
 * written when asked, else the time since the last transaction it replayed (the usual measure:
 * a replica that stopped replaying falls further behind every second, even if nothing commits).
 */
async function check(): Promise<void> {
  const pool = shared.pool;
  if (!pool) return;
  const maxLag = databaseConfig().replicaMaxLagSeconds;
  try {
    const [primary] = await rawSql()<{ lsn: string }[]>`select pg_current_wal_lsn()::text as lsn`;
    const [row] = await pool.sql<{ behind: boolean; since: number | null; recovering: boolean }[]>`
      select pg_is_in_recovery() as recovering,
             coalesce(pg_last_wal_replay_lsn() < ${primary!.lsn}::pg_lsn, true) as behind,
             extract(epoch from now() - pg_last_xact_replay_timestamp())::float8 as since`;
    // A server that is not in recovery is not a replica of anything: never read from it.
    if (!row?.recovering) {
      shared.state = { configured: true, state: "unreachable", lagSeconds: null };
      return;
    }
    let lagSeconds = row.behind ? Math.max(0, row.since ?? Number.POSITIVE_INFINITY) : 0;
    // After a quiet spell the last replayed transaction is old, so a replica one commit behind
    // would look minutes late: give it a moment to reach the position the primary gave, and
    // count only what it still lacks then.
    if (lagSeconds > maxLag) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const [again] = await pool.sql<{ reached: boolean }[]>`
        select coalesce(pg_last_wal_replay_lsn() >= ${primary!.lsn}::pg_lsn, false) as reached`;
      if (again?.reached) lagSeconds = 0.1;
    }
    shared.state = { configured: true, state: lagSeconds <= maxLag ? "ok" : "lagging", lagSeconds };
  } catch {
    shared.state = { configured: true, state: "unreachable", lagSeconds: null };
  }
}

/** The replica's state, measured now (for readiness and /metrics). */
export async function checkReplica(): Promise<ReplicaState> {
  if (!replica()) return { configured: false };
  // A replica that drops packets would hold its check for the connect timeout: readiness and a
  // scrape wait a second at most, then report what the monitor saw last.
  await Promise.race([check(), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
  return shared.state;
}

/** Heavy reads served so far by this process, by where they ran. */
export function replicaReadCounts(): Record<ReadTarget, number> {
  return { ...shared.reads };
}

/** Runs `fn` (a request's handling) as `caller`'s: its heavy reads know whose they are. */
export function asCaller<T>(caller: string, fn: () => T): T {
  // Without a replica nothing asks whose a read is. An AsyncLocalStorage once run stays enabled
  // and taxes every promise the process makes (Node 20 propagates each enabled store on each
  // async resource), so it is never run when no replica is configured.
  if (!databaseConfig().replicaUrl) return fn();
  return shared.caller.run(caller, fn);
}

/** The current caller changed something: its reads stay on the primary until the replica has it. */
export function noteWrite(caller = shared.caller.getStore()): void {
  if (!caller || !databaseConfig().replicaUrl) return;
  const until = Date.now() + (databaseConfig().replicaMaxLagSeconds + 1) * 1000;
  shared.writers.set(caller, until);
  // Forget callers whose window has passed, now and then, so the map stays as small as the set
  // of callers who wrote in the last few seconds.
  if (shared.writers.size > 10_000) for (const [k, t] of shared.writers) if (t < Date.now()) shared.writers.delete(k);
}

function replicaForThisRead(): Connection | null {
  const pool = replica();
  if (!pool || shared.state.configured === false || shared.state.state !== "ok") return null;
  const caller = shared.caller.getStore();
  const until = caller ? shared.writers.get(caller) : undefined;
  if (until !== undefined) {
    if (until > Date.now()) return null;
    shared.writers.delete(caller!);
  }
  return pool;
}

/**
 * A heavy read: on the replica when one is configured, caught up and not owed to the caller's own
 * recent write; else, or when the replica fails it, on the primary.
 */
export async function onReplica<T>(read: (database: ReadDatabase) => Promise<T>): Promise<T> {
  const pool = replicaForThisRead();
  if (pool) {
    try {
      const result = await read(pool);
      shared.reads.replica += 1;
      return result;
    } catch (error) {
      if (!replicaFailed(error)) throw error;
      shared.state = { configured: true, state: "unreachable", lagSeconds: null };
    }
  }
  const result = await read({ db: db(), sql: rawSql() });
  shared.reads.primary += 1;
  return result;
}

/** The replica's connection failed, or it cancelled the read for a conflict with recovery (40001). */
function replicaFailed(error: unknown): boolean {
  if (databaseUnavailable(error)) return true;
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    if ((current as { code?: unknown }).code === "40001") return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export async function closeReplica(): Promise<void> {
  if (shared.monitor) clearInterval(shared.monitor);
  shared.monitor = null;
  const pool = shared.pool;
  shared.pool = null;
  await pool?.sql.end({ timeout: 5 });
}
