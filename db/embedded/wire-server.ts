// Serves one in-process PGlite over the PostgreSQL wire protocol on 127.0.0.1, so
// that every process (Next.js, CLI scripts, tests) talks to the embedded database
// through postgres.js exactly as it would to a real server.
//
// PGlite is a single backend (one session), so client connections take turns.
// A connection owns the backend from its first message until it reaches a clean
// boundary: a Sync, simple Query or startup message has been processed and no
// transaction block is open. Other connections wait, in a FIFO of *connections*,
// with their messages buffered. Multiplexing per message instead (as
// @electric-sql/pglite-socket does) corrupts the extended query protocol: two
// clients' Parse/Bind/Execute interleave on the one unnamed statement/portal.
//
// Consequences for clients:
// - Use postgres.js with `prepare: false`. Named prepared statements live in the
//   one shared session, so names from different clients collide.
// - And with `fetch_types: false`. Otherwise postgres.js 4 looks types up when a
//   statement's description first names one it does not know (our enum): it
//   stops that connection between Describe and Sync, which keeps the backend,
//   and asks on another connection, which waits for the backend: a deadlock.
//   (Its eager lookup has a hang of its own: db/client.ts.)
// - Session state (SET, temp tables, advisory locks) is shared by all
//   connections. Don't rely on it.
// - LISTEN/NOTIFY works as on a real server: the server remembers which client
//   connection LISTENed to which channel, takes NotificationResponse messages out
//   of whatever output the backend produces (they appear in the output of the
//   connection whose transaction sent the NOTIFY, since the session is shared)
//   and writes each one to the sockets listening on its channel, at once, even
//   while another connection owns the backend. UNLISTEN by one client does not
//   stop another's channel. (The delivery queue wakes on this: see server/delivery.)
//
// Three parts: this file is the socket plumbing (accept, frame messages, hang up,
// stop); connection-queue.ts hands the backend to one connection at a time;
// notify-fanout.ts carries LISTEN/NOTIFY between the shared session and the
// listening sockets.
// - A connection holding an open transaction blocks every other connection
//   until it commits, rolls back or disconnects (unlike real Postgres, where
//   readers are not blocked). Keep transactions short and never wait, inside a
//   transaction, for a query on another connection: that deadlocks.
// - COPY ... FROM STDIN is not supported.

import net from "node:net";
import type { PGlite } from "@electric-sql/pglite";
import { newConnection, STARTUP, TERMINATE, type Connection, type HangUp } from "./connection";
import { ConnectionQueue } from "./connection-queue";
import { NotifyFanout } from "./notify-fanout";

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;
// PGlite's receive buffer tops out at 1 GiB; anything larger is garbage.
const MAX_MESSAGE = 1 << 30;

export interface WireServer {
  port: number;
  url: string;
  stop(): Promise<void>;
}

export async function startWireServer(opts: {
  db: PGlite;
  host?: string;
  port?: number;
  // A client sees a connection the server drops as ECONNRESET or a closed connection, with
  // nothing in any database log: this is where the process that owns the database says why.
  onHangUp?: (hangUp: HangUp) => void;
}): Promise<WireServer> {
  const { db } = opts;
  const host = opts.host ?? "127.0.0.1";
  await db.waitReady;

  const connections = new Set<Connection>();
  const fanout = new NotifyFanout(db, connections);
  const queue = new ConnectionQueue(db, fanout, onClose, hangUp);

  function hangUp(conn: Connection, why: HangUp) {
    conn.socket.destroy(why.error);
    onClose(conn);
    opts.onHangUp?.(why);
  }

  function onClose(conn: Connection) {
    if (conn.closed) return;
    conn.closed = true;
    conn.pending = [];
    connections.delete(conn);
    queue.forget(conn);
  }

  function onData(conn: Connection, chunk: Buffer) {
    if (conn.closed) return;
    conn.input = conn.input.length === 0 ? chunk : Buffer.concat([conn.input, chunk]);
    if (!frame(conn)) return;
    const last = conn.pending[conn.pending.length - 1];
    // A connection that holds no backend state can leave without queueing.
    if (last?.type === TERMINATE && conn.pending.length === 1 && !queue.owns(conn)) {
      conn.socket.end();
      onClose(conn);
      return;
    }
    if (conn.pending.length > 0 && !queue.owns(conn)) queue.enqueue(conn);
    queue.kick();
  }

  // Moves complete messages from conn.input to conn.pending. Returns false if
  // the connection was closed (pre-startup requests, protocol errors).
  function frame(conn: Connection): boolean {
    let buf = conn.input;
    while (!conn.started) {
      if (buf.length < 8) break;
      const len = buf.readInt32BE(0);
      const code = buf.readInt32BE(4);
      if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
        conn.socket.write("N");
        buf = buf.subarray(8);
      } else if (code === CANCEL_REQUEST) {
        // PGlite can't interrupt a running query; a cancel connection carries
        // nothing else, so just hang up as Postgres does.
        conn.socket.end();
        onClose(conn);
        return false;
      } else if (code === PROTOCOL_3 && len >= 8 && len <= MAX_MESSAGE) {
        if (buf.length < len) break;
        conn.pending.push({ type: STARTUP, bytes: buf.subarray(0, len) });
        conn.started = true;
        buf = buf.subarray(len);
      } else {
        hangUp(conn, { reason: "unsupported startup" });
        return false;
      }
    }
    while (conn.started && buf.length >= 5) {
      const len = buf.readInt32BE(1);
      if (len < 4 || len > MAX_MESSAGE) {
        hangUp(conn, { reason: "malformed message" });
        return false;
      }
      if (buf.length < len + 1) break;
      conn.pending.push({ type: buf[0]!, bytes: buf.subarray(0, len + 1) });
      buf = buf.subarray(len + 1);
    }
    conn.input = buf;
    return true;
  }

  const server = net.createServer((socket) => {
    socket.setNoDelay(true);
    const conn = newConnection(socket);
    connections.add(conn);
    socket.on("data", (chunk: Buffer) => onData(conn, chunk));
    socket.on("error", () => {}); // "close" follows and does the cleanup
    socket.on("close", () => onClose(conn));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("wire server has no TCP address");
  const port = address.port;

  let stopped: Promise<void> | null = null;
  return {
    port,
    url: `postgres://postgres@${host}:${port}/postgres`,
    stop() {
      stopped ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const conn of [...connections]) {
          conn.socket.destroy();
          onClose(conn);
        }
        // Let the pump finish the batch in flight and roll back the last owner,
        // so the caller can close PGlite safely.
        queue.kick();
        await queue.drained();
        await closed;
      })();
      return stopped;
    },
  };
}
