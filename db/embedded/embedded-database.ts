// Opens the on-disk embedded PGlite database for this data directory, shared by
// every local process: the first process to arrive starts a wire server (see
// wire-server.ts) and advertises it in `embedded-db.json`; later ones connect to
// that URL. Clients must use postgres.js with `prepare: false`.
//
// Only one PGlite may ever open `${dataDir}/pglite` (two would corrupt it), hence
// the lock file around check-and-start and the liveness checks on the marker.

import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import type { HangUp } from "./connection";
import { startWireServer } from "./wire-server";

export interface EmbeddedDatabase {
  url: string;
  /** Whether this process runs the server (and must keep running for others). */
  owned: boolean;
  stop(): Promise<void>;
}

interface Marker {
  url: string;
  pid: number;
}

// First start runs initdb, which takes a few seconds; be generous.
const LOCK_TIMEOUT_MS = 60_000;
// A lock file with no readable pid yet is assumed to be mid-creation until then.
const UNREADABLE_LOCK_GRACE_MS = 10_000;
// How long a server that accepts connections may stay silent before this process gives up (and fails, rather
// than open the same files a second time; it used to give up after 2 s and open them). PGlite runs on its process's one thread: while it runs a long
// statement (a migration, a large read on a busy machine), its wire server accepts the connection but cannot
// answer for a while. Shorter than the lock's wait, so the processes queued behind this one still get their turn.
const BUSY_SERVER_PATIENCE_MS = 30_000;

export async function openEmbeddedDatabase(
  dataDir: string,
  // Called when this process serves the database and closes a client's connection itself.
  onHangUp?: (hangUp: HangUp) => void,
): Promise<EmbeddedDatabase> {
  fs.mkdirSync(dataDir, { recursive: true });
  const markerPath = path.join(dataDir, "embedded-db.json");
  const unlock = await acquireLock(path.join(dataDir, "embedded-db.lock"));
  try {
    const running = readMarker(markerPath);
    if (running && isAlive(running.pid) && (await serverAnswers(running))) {
      return { url: running.url, owned: false, stop: async () => {} };
    }

    const db = new PGlite(path.join(dataDir, "pglite"));
    let server;
    try {
      await db.waitReady;
      server = await startWireServer({ db, onHangUp });
    } catch (err) {
      await db.close().catch(() => {});
      throw err;
    }
    const url = server.url;
    writeFileAtomic(markerPath, JSON.stringify({ url, pid: process.pid } satisfies Marker));

    let stopped: Promise<void> | null = null;
    const stop = () =>
      (stopped ??= (async () => {
        // Withdraw the marker first so nobody picks up a URL that is going away;
        // but never remove a marker a newer server has written since.
        const current = readMarker(markerPath);
        if (current?.pid === process.pid && current.url === url) fs.rmSync(markerPath, { force: true });
        await server.stop();
        await db.close();
      })());
    return { url, owned: true, stop };
  } finally {
    unlock();
  }
}

function readMarker(file: string): Marker | null {
  try {
    const data: unknown = JSON.parse(fs.readFileSync(file, "utf8"));
    if (
      data &&
      typeof data === "object" &&
      "url" in data &&
      typeof data.url === "string" &&
      "pid" in data &&
      typeof data.pid === "number"
    ) {
      return { url: data.url, pid: data.pid };
    }
  } catch {
    // missing or half-written by a crashed process: treat as absent
  }
  return null;
}

function writeFileAtomic(file: string, content: string) {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, content);
  fs.renameSync(tmp, file);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Whether the marker's server is there to share. Nothing listening, or a program that is not Postgres: no (a stale
 * marker whose pid was reused). A connection accepted but not answered: its process is busy (see
 * BUSY_SERVER_PATIENCE_MS), so wait for the answer; taking a slow answer for "gone" once let a CLI script open the
 * same PGlite files beside the service's, and write where the service never looked.
 */
async function serverAnswers(marker: Marker): Promise<boolean> {
  const answer = await probe(marker.url, BUSY_SERVER_PATIENCE_MS);
  if (answer === "silent")
    throw new Error(
      `the embedded database's server (process ${marker.pid}, ${marker.url}) accepts connections but has ` +
        `not answered for ${BUSY_SERVER_PATIENCE_MS / 1000} s; ` +
        `not opening its files a second time (if that process is not Wayline's, delete embedded-db.json in the data directory)`,
    );
  return answer === "postgres";
}

// A bare TCP connect could hit an unrelated program that reused the pid and port,
// so ask for SSL like a Postgres client would: any Postgres server answers 'N' or 'S'.
function probe(url: string, timeoutMs: number): Promise<"postgres" | "other" | "silent"> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    const done = (answer: "postgres" | "other" | "silent") => {
      socket.destroy();
      resolve(answer);
    };
    // Nothing listening is refused at once (an error); a timeout means something is there, not answering yet.
    socket.setTimeout(timeoutMs, () => done("silent"));
    socket.once("error", () => done("other"));
    socket.once("connect", () => {
      const req = Buffer.alloc(8);
      req.writeInt32BE(8, 0);
      req.writeInt32BE(80877103, 4);
      socket.write(req);
    });
    socket.once("data", (data) => done(data[0] === 0x4e || data[0] === 0x53 ? "postgres" : "other"));
  });
}

// Exclusive-create lock file holding "pid nonce". Returns the release function.
async function acquireLock(lockPath: string): Promise<() => void> {
  const content = `${process.pid} ${randomUUID()}`;
  const deadline = Date.now() + LOCK_TIMEOUT_MS;
  for (;;) {
    try {
      const fd = fs.openSync(lockPath, "wx");
      try {
        fs.writeSync(fd, content);
      } finally {
        fs.closeSync(fd);
      }
      return () => {
        try {
          if (fs.readFileSync(lockPath, "utf8") === content) fs.rmSync(lockPath);
        } catch {
          // already gone
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const held = readLock(lockPath);
    if (held && isStale(held)) breakStaleLock(lockPath, held.content);
    else if (Date.now() > deadline) throw new Error(`timed out waiting for lock ${lockPath}`);
    else await sleep(25 + Math.random() * 50);
  }
}

function readLock(lockPath: string): { content: string; pid: number; mtimeMs: number } | null {
  try {
    const { mtimeMs } = fs.statSync(lockPath);
    const content = fs.readFileSync(lockPath, "utf8");
    return { content, pid: Number.parseInt(content, 10), mtimeMs };
  } catch {
    return null; // vanished in between: just retry
  }
}

function isStale(lock: { pid: number; mtimeMs: number }): boolean {
  if (Number.isInteger(lock.pid) && lock.pid > 0) return !isAlive(lock.pid);
  // No pid: a crash between create and write, or a writer we caught mid-write.
  return Date.now() - lock.mtimeMs > UNREADABLE_LOCK_GRACE_MS;
}

// Two processes can both judge the same lock stale; if one breaks it and takes a
// new lock before the other acts, a plain unlink would delete the live lock. So
// move it aside atomically and check we moved the stale one; if not, put it back.
function breakStaleLock(lockPath: string, staleContent: string) {
  const aside = `${lockPath}.${process.pid}.${randomUUID()}`;
  try {
    fs.renameSync(lockPath, aside);
  } catch {
    return; // someone else broke it first
  }
  try {
    if (fs.readFileSync(aside, "utf8") !== staleContent) fs.linkSync(aside, lockPath);
  } catch {
    // lockPath re-taken meanwhile: the newer holder wins
  } finally {
    fs.rmSync(aside, { force: true });
  }
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
