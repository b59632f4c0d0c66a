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
// - Session state (SET, temp tables, advisory locks) is shared by all
//   connections. Don't rely on it.
// - LISTEN/NOTIFY works as on a real server: the server remembers which client
//   connection LISTENed to which channel, takes NotificationResponse messages out
//   of whatever output the backend produces (they appear in the output of the
//   connection whose transaction sent the NOTIFY, since the session is shared)
//   and writes each one to the sockets listening on its channel, at once, even
//   while another connection owns the backend. UNLISTEN by one client does not
//   stop another's channel. (The delivery queue wakes on this: see server/delivery.)
// - A connection holding an open transaction blocks every other connection
//   until it commits, rolls back or disconnects (unlike real Postgres, where
//   readers are not blocked). Keep transactions short and never wait, inside a
//   transaction, for a query on another connection: that deadlocks.
// - COPY ... FROM STDIN is not supported.

import net from "node:net";
import type { PGlite } from "@electric-sql/pglite";
import { cstring, int16, int32, message } from "./protocol";

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;
const STARTUP = 0; // our tag for the untyped startup message
const SYNC = 0x53; // "S"
const QUERY = 0x51; // "Q"
const TERMINATE = 0x58; // "X"
const PARSE = 0x50; // "P"
const NOTIFICATION_RESPONSE = 0x41; // "A" (backend)
// PGlite's receive buffer tops out at 1 GiB; anything larger is garbage.
const MAX_MESSAGE = 1 << 30;

// Aborts whatever a connection left behind mid extended protocol. A bare Sync
// would *commit* the implicit transaction of Executes already run (Postgres
// aborts it when a client vanishes), so run ROLLBACK first: it also ends an open
// transaction block, and is skipped harmlessly if the backend is discarding
// input after an error, in which case Sync alone ends that mode.
const ABORT_EXTENDED = Buffer.concat([
  message("P", cstring(""), cstring("ROLLBACK"), int16(0)), // unnamed statement, no params
  message("B", cstring(""), cstring(""), int16(0), int16(0), int16(0)), // unnamed portal
  message("E", cstring(""), int32(0)),
  message("S"),
]);
const ROLLBACK = message("Q", cstring("ROLLBACK"));

interface Message {
  type: number;
  bytes: Uint8Array;
}

interface Connection {
  socket: net.Socket;
  input: Buffer;
  started: boolean;
  pending: Message[];
  queued: boolean;
  closed: boolean;
  // Messages have run since the last Sync/Query: the backend may hold this
  // connection's unnamed statement/portal or be skipping input until Sync.
  midExtended: boolean;
  // Channels this client LISTENs to.
  listening: Set<string>;
}

// LISTEN/UNLISTEN statements in a query text: channel names as PostgreSQL folds
// them (quoted: as written; bare: lower case), "*" for UNLISTEN *.
const LISTEN_STATEMENT = /(?:^|;)\s*(UNLISTEN|LISTEN)\s+("(?:[^"]|"")+"|[A-Za-z_][\w$]*|\*)/gi;

export function listenChanges(query: string): { listen: string[]; unlisten: string[] } {
  const listen: string[] = [];
  const unlisten: string[] = [];
  for (const m of query.matchAll(LISTEN_STATEMENT)) {
    const raw = m[2]!;
    const channel = raw.startsWith('"') ? raw.slice(1, -1).replace(/""/g, '"') : raw.toLowerCase();
    (m[1]!.toUpperCase() === "LISTEN" ? listen : unlisten).push(channel);
  }
  return { listen, unlisten };
}

// The query text of a simple Query or a Parse message.
function queryText(m: Message): string | null {
  const b = Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength);
  if (m.type === QUERY) return b.toString("utf8", 5, b.indexOf(0, 5));
  if (m.type === PARSE) {
    const nameEnd = b.indexOf(0, 5);
    return b.toString("utf8", nameEnd + 1, b.indexOf(0, nameEnd + 1));
  }
  return null;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

export interface WireServer {
  port: number;
  url: string;
  stop(): Promise<void>;
}

export async function startWireServer(opts: {
  db: PGlite;
  host?: string;
  port?: number;
}): Promise<WireServer> {
  const { db } = opts;
  const host = opts.host ?? "127.0.0.1";
  await db.waitReady;

  const connections = new Set<Connection>();
  const waiting: Connection[] = [];
  let owner: Connection | null = null;
  let pumping = false;
  let pumpDone: Promise<void> = Promise.resolve();

  // Output always goes through execProtocolRawStream: PGlite never clears the
  // onRawData callback it installs, so a later execProtocolRaw would send its
  // output to the previous caller's socket.
  const run = (bytes: Uint8Array, onRawData: (data: Uint8Array) => void) =>
    db.runExclusive(() => db.execProtocolRawStream(bytes, { onRawData }));
  const discard = () => {};

  function kick() {
    if (!pumping) {
      pumping = true;
      pumpDone = pump();
    }
  }

  async function pump(): Promise<void> {
    try {
      for (;;) {
        if (!owner) {
          owner = waiting.shift() ?? null;
          if (!owner) return;
          owner.queued = false;
        }
        const conn = owner;
        if (conn.closed) {
          await release(conn);
          continue;
        }
        const batch = takeBatch(conn);
        // Owner is mid-transaction or mid-extended-protocol: keep the backend
        // for it and wait for its next message.
        if (!batch) return;

        if (batch.last === TERMINATE) {
          await release(conn);
          conn.socket.end();
          onClose(conn);
          continue;
        }

        const output = new OutputSplitter(
          (bytes) => {
            if (conn.socket.writable) conn.socket.write(bytes);
          },
          (notification) => forward(notification),
        );
        try {
          // PGlite hands us a view of its own buffer: the splitter copies.
          await run(batch.bytes, (data) => output.push(data));
          output.end();
          if (batch.listenChanges) await applyListenChanges(conn, batch.listenChanges);
        } catch (err) {
          conn.socket.destroy(err instanceof Error ? err : new Error(String(err)));
          onClose(conn);
          continue;
        }
        conn.midExtended = !(batch.last === SYNC || batch.last === QUERY || batch.last === STARTUP);
        if (!conn.midExtended && !db.isInTransaction()) {
          owner = null;
          // Back of the line, so one chatty connection can't starve the rest.
          if (conn.pending.length > 0) enqueue(conn);
        }
      }
    } finally {
      pumping = false;
    }
  }

  // Hand the backend over in a clean state after a connection leaves: no
  // half-finished extended-protocol sequence (its skip-until-Sync mode would eat
  // the next owner's messages) and no transaction left open.
  async function release(conn: Connection) {
    try {
      await db.runExclusive(async () => {
        if (conn.midExtended) await db.execProtocolRawStream(ABORT_EXTENDED, { onRawData: discard });
        // e.g. a failed transaction block, where ABORT_EXTENDED's ROLLBACK was skipped
        if (db.isInTransaction()) await db.execProtocolRawStream(ROLLBACK, { onRawData: discard });
      });
    } catch {
      // Nothing more we can do for the backend; the next owner will see errors.
    }
    conn.midExtended = false;
    if (owner === conn) owner = null;
  }

  // Writes a NotificationResponse to every client listening on its channel.
  function forward(notification: Buffer) {
    // Int32 length, Int32 pid, then the channel as a C string.
    const end = notification.indexOf(0, 9);
    const channel = notification.toString("utf8", 9, end);
    for (const c of connections) {
      if (!c.closed && c.listening.has(channel) && c.socket.writable) c.socket.write(notification);
    }
  }

  // After a batch with LISTEN/UNLISTEN ran: remember the client's channels, and
  // keep the shared backend listening to every channel some client still wants.
  async function applyListenChanges(conn: Connection, changes: { listen: string[]; unlisten: string[] }) {
    for (const channel of changes.unlisten) {
      if (channel === "*") conn.listening.clear();
      else conn.listening.delete(channel);
    }
    for (const channel of changes.listen) conn.listening.add(channel);
    if (changes.unlisten.length === 0) return;
    const wanted = new Set<string>();
    for (const c of connections) for (const channel of c.listening) wanted.add(channel);
    if (wanted.size === 0) return;
    const relisten = message("Q", cstring([...wanted].map((ch) => `LISTEN ${quoteIdent(ch)}`).join("; ")));
    await db.runExclusive(() => db.execProtocolRawStream(relisten, { onRawData: discard }));
  }

  function enqueue(conn: Connection) {
    if (!conn.queued && !conn.closed) {
      conn.queued = true;
      waiting.push(conn);
    }
  }

  function onClose(conn: Connection) {
    if (conn.closed) return;
    conn.closed = true;
    conn.pending = [];
    connections.delete(conn);
    const i = waiting.indexOf(conn);
    if (i >= 0) waiting.splice(i, 1);
    // The pump rolls back for a closed owner when it next looks at it.
    if (owner === conn) kick();
  }

  function onData(conn: Connection, chunk: Buffer) {
    if (conn.closed) return;
    conn.input = conn.input.length === 0 ? chunk : Buffer.concat([conn.input, chunk]);
    if (!frame(conn)) return;
    const last = conn.pending[conn.pending.length - 1];
    // A connection that holds no backend state can leave without queueing.
    if (last?.type === TERMINATE && conn.pending.length === 1 && owner !== conn) {
      conn.socket.end();
      onClose(conn);
      return;
    }
    if (conn.pending.length > 0 && owner !== conn) enqueue(conn);
    kick();
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
        conn.socket.destroy();
        onClose(conn);
        return false;
      }
    }
    while (conn.started && buf.length >= 5) {
      const len = buf.readInt32BE(1);
      if (len < 4 || len > MAX_MESSAGE) {
        conn.socket.destroy();
        onClose(conn);
        return false;
      }
      if (buf.length < len + 1) break;
      conn.pending.push({ type: buf[0]!, bytes: buf.subarray(0, len + 1) });
      buf = buf.subarray(len + 1);
    }
    conn.input = buf;
    return true;
  }

  // Everything up to and including the next Sync/Query goes to PGlite in one call
  // (it loops until its input is consumed), which saves a round trip through the
  // mutex and the WASM main loop per message. The startup message and Terminate
  // must travel alone: PGlite special-cases them by their first byte.
  function takeBatch(conn: Connection): { bytes: Uint8Array; last: number; listenChanges?: { listen: string[]; unlisten: string[] } } | null {
    const first = conn.pending[0];
    if (!first) return null;
    if (first.type === STARTUP || first.type === TERMINATE) {
      conn.pending.shift();
      return { bytes: first.bytes, last: first.type };
    }
    let n = 0;
    let last = first.type;
    for (const m of conn.pending) {
      if (m.type === TERMINATE) break;
      n++;
      last = m.type;
      if (m.type === SYNC || m.type === QUERY) break;
    }
    const msgs = conn.pending.splice(0, n);
    const bytes = msgs.length === 1 ? msgs[0]!.bytes : Buffer.concat(msgs.map((m) => m.bytes));
    let changes: { listen: string[]; unlisten: string[] } | undefined;
    for (const m of msgs) {
      const text = m.type === QUERY || m.type === PARSE ? queryText(m) : null;
      if (text && /listen/i.test(text)) {
        const found = listenChanges(text);
        if (found.listen.length + found.unlisten.length > 0) {
          changes ??= { listen: [], unlisten: [] };
          changes.listen.push(...found.listen);
          changes.unlisten.push(...found.unlisten);
        }
      }
    }
    return { bytes, last, listenChanges: changes };
  }

  const server = net.createServer((socket) => {
    socket.setNoDelay(true);
    const conn: Connection = {
      socket,
      input: Buffer.alloc(0),
      started: false,
      pending: [],
      queued: false,
      closed: false,
      midExtended: false,
      listening: new Set(),
    };
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
        kick();
        await pumpDone;
        await closed;
      })();
      return stopped;
    },
  };
}

// Splits the backend's output stream into messages: NotificationResponses go to
// `notification`, everything else to `write`, in order and in as few writes as
// possible. Output arrives in chunks that need not end on message boundaries.
class OutputSplitter {
  private rest: Buffer = Buffer.alloc(0);

  constructor(
    private readonly write: (bytes: Buffer) => void,
    private readonly notification: (message: Buffer) => void,
  ) {}

  push(data: Uint8Array) {
    const buf = this.rest.length === 0 ? Buffer.from(data) : Buffer.concat([this.rest, data]);
    let start = 0; // first byte not yet handed on
    let at = 0;
    while (buf.length - at >= 5) {
      const len = buf.readInt32BE(at + 1);
      if (buf.length - at < len + 1) break;
      if (buf[at] === NOTIFICATION_RESPONSE) {
        if (at > start) this.write(buf.subarray(start, at));
        this.notification(buf.subarray(at, at + len + 1));
        start = at + len + 1;
      }
      at += len + 1;
    }
    if (at > start) this.write(buf.subarray(start, at));
    this.rest = buf.subarray(at);
  }

  end() {
    if (this.rest.length > 0) this.write(this.rest);
    this.rest = Buffer.alloc(0);
  }
}
