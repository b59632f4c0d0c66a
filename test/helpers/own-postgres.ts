import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import postgres from "postgres";
import { freePort } from "./processes";

const run = promisify(execFile);

// A PostgreSQL cluster of a test's own (initdb and pg_ctl of the server package, run as the
// `postgres` user), on a loopback port of its own, for tests that stop and start the database
// under a running service. Its data directory is a temporary one owned by postgres; remove()
// stops the server and deletes it.

const BIN = process.env.POSTGRES_BIN ?? "/usr/lib/postgresql/15/bin";

export type OwnPostgres = {
  /** postgres://postgres@127.0.0.1:PORT/postgres (trust authentication on loopback). */
  url: string;
  /** The server's own log (one file over every start). */
  log(): string;
  start(): Promise<void>;
  /** `pg_ctl stop -m immediate`: every backend is killed at once, as in a crash; recovery runs on the next start. */
  stopImmediately(): Promise<void>;
  remove(): Promise<void>;
};

const asPostgres = (tool: string, args: string[]) =>
  run("runuser", ["-u", "postgres", "--", path.join(BIN, tool), ...args]);

/**
 * `settings`: more `-c name=value` options for the postmaster. `durable`: fsync on, as a production
 * server runs (a benchmark's cluster); the tests' clusters run without it (below).
 */
export async function startOwnPostgres(
  name: string,
  { settings = "", durable = false }: { settings?: string; durable?: boolean } = {},
): Promise<OwnPostgres> {
  return startCluster(name, {
    fill: (data) => asPostgres("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]),
    settings,
    durable,
  });
}

export type OwnReplica = OwnPostgres & {
  /** Stops applying the primary's WAL (pg_wal_replay_pause): the replica falls behind. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
};

/**
 * A streaming replica of `primary` (`pg_basebackup -R` into a temporary directory, then a second
 * postmaster on a loopback port of its own), hot standby: it answers reads.
 */
export async function startOwnReplica(name: string, primary: OwnPostgres): Promise<OwnReplica> {
  const from = new URL(primary.url);
  const cluster = await startCluster(name, {
    fill: (data) =>
      asPostgres("pg_basebackup", [
        ...["-h", from.hostname, "-p", from.port, "-U", "postgres", "-D", data],
        ...["-R", "-X", "stream", "--no-sync", "-c", "fast"],
      ]),
    settings: "-c hot_standby=on",
  });
  const onReplica = async (run: (sql: postgres.Sql) => Promise<unknown>) => {
    const sql = postgres(cluster.url, { max: 1, onnotice: () => {} });
    try {
      await run(sql);
    } finally {
      await sql.end();
    }
  };
  return {
    ...cluster,
    pauseReplay: () => onReplica((sql) => sql`select pg_wal_replay_pause()`.execute()),
    resumeReplay: () => onReplica((sql) => sql`select pg_wal_replay_resume()`.execute()),
  };
}

/** A cluster in a temporary directory owned by postgres, its data made by `fill`, started. */
async function startCluster(
  name: string,
  {
    fill,
    settings = "",
    durable = false,
  }: { fill: (data: string) => Promise<unknown>; settings?: string; durable?: boolean },
): Promise<OwnPostgres> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `wayline-pg-${name}-`));
  const { uid, gid } = await postgresIds();
  fs.chownSync(dir, uid, gid);
  const data = path.join(dir, "data");
  const logFile = path.join(dir, "server.log");
  const port = await freePort();
  await fill(data);
  // The socket in the test's own directory, TCP on loopback only. fsync off: a killed server (the
  // tests' stop -m immediate) still keeps every commit written to the kernel; only a machine crash
  // would lose them.
  const options =
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1${durable ? "" : " -c fsync=off"} ${settings}`.trim();
  const cluster: OwnPostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    log: () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8") : ""),
    start: async () =>
      void (await asPostgres("pg_ctl", ["-D", data, "-o", options, "-l", logFile, "-w", "-t", "60", "start"])),
    stopImmediately: async () => void (await asPostgres("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"])),
    async remove() {
      await asPostgres("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]).catch(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await cluster.start();
  } catch (error) {
    await cluster.remove();
    throw error;
  }
  return cluster;
}

async function postgresIds(): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([run("id", ["-u", "postgres"]), run("id", ["-g", "postgres"])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}
