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
const PROBE_TIMEOUT_MS = 2_000;

export async function openEmbeddedDatabase(dataDir: string): Promise<EmbeddedDatabase> {
  fs.mkdirSync(dataDir, { recursive: true });
  const markerPath = path.join(dataDir, "embedded-db.json");
  const unlock = await acquireLock(path.join(dataDir, "embedded-db.lock"));
  try {
    const running = readMarker(markerPath);
    if (running && isAlive(running.pid) && (await answersPostgres(running.url))) {
      return { url: running.url, owned: false, stop: async () => {} };
    }

    const db = new PGlite(path.join(dataDir, "pglite"));
    let server;
    try {
      await db.waitReady;
      server = await startWireServer({ db });
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

// A bare TCP connect could hit an unrelated program that reused the pid and port,
// so ask for SSL like a Postgres client would: any Postgres server answers 'N' or 'S'.
function answersPostgres(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(PROBE_TIMEOUT_MS, () => done(false));
    socket.once("error", () => done(false));
    socket.once("connect", () => {
      const req = Buffer.alloc(8);
      req.writeInt32BE(8, 0);
      req.writeInt32BE(80877103, 4);
      socket.write(req);
    });
    socket.once("data", (data) => done(data[0] === 0x4e || data[0] === 0x53));
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
