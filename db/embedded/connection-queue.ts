import type { PGlite } from "@electric-sql/pglite";
import { QUERY, STARTUP, SYNC, TERMINATE, type Connection, type HangUp, type Message } from "./connection";
import { listenChangesIn, OutputSplitter, type ListenChanges, type NotifyFanout } from "./notify-fanout";
import { cstring, int16, int32, message } from "./protocol";

// Client connections take turns at PGlite's one backend. A connection owns the backend from its
// first message until it reaches a clean boundary: a Sync, simple Query or startup message has
// been processed and no transaction block is open. Other connections wait, in a FIFO of
// *connections*, with their messages buffered (see wire-server.ts for why not per message).

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
const discard = () => {};

type Batch = { bytes: Uint8Array; last: number; listenChanges?: ListenChanges };

export class ConnectionQueue {
  private readonly waiting: Connection[] = [];
  private owner: Connection | null = null;
  private pumping = false;
  private pumpDone: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: PGlite,
    private readonly fanout: NotifyFanout,
    // The socket plumbing's cleanup for a connection that has gone.
    private readonly close: (conn: Connection) => void,
    // Closes a connection on the server's side and reports why.
    private readonly hangUp: (conn: Connection, why: HangUp) => void,
  ) {}

  owns(conn: Connection): boolean {
    return this.owner === conn;
  }

  /** Resolves when the pump has finished the batch in flight (and rolled back a closed owner). */
  drained(): Promise<void> {
    return this.pumpDone;
  }

  enqueue(conn: Connection) {
    if (!conn.queued && !conn.closed) {
      conn.queued = true;
      this.waiting.push(conn);
    }
  }

  /** Takes a closed connection out of the line. */
  forget(conn: Connection) {
    const i = this.waiting.indexOf(conn);
    if (i >= 0) this.waiting.splice(i, 1);
    // The pump rolls back for a closed owner when it next looks at it.
    if (this.owner === conn) this.kick();
  }

  kick() {
    if (!this.pumping) {
      this.pumping = true;
      this.pumpDone = this.pump();
    }
  }

  // Output always goes through execProtocolRawStream: PGlite never clears the
  // onRawData callback it installs, so a later execProtocolRaw would send its
  // output to the previous caller's socket.
  private run(bytes: Uint8Array, onRawData: (data: Uint8Array) => void) {
    return this.db.runExclusive(() => this.db.execProtocolRawStream(bytes, { onRawData }));
  }

  private async pump(): Promise<void> {
    try {
      for (;;) {
        if (!this.owner) {
          this.owner = this.waiting.shift() ?? null;
          if (!this.owner) return;
          this.owner.queued = false;
        }
        const conn = this.owner;
        if (conn.closed) {
          await this.release(conn);
          continue;
        }
        const batch = takeBatch(conn);
        // Owner is mid-transaction or mid-extended-protocol: keep the backend
        // for it and wait for its next message.
        if (!batch) return;

        if (batch.last === TERMINATE) {
          await this.release(conn);
          conn.socket.end();
          this.close(conn);
          continue;
        }

        const output = new OutputSplitter(
          (bytes) => {
            if (conn.socket.writable) conn.socket.write(bytes);
          },
          (notification) => this.fanout.forward(notification),
        );
        try {
          // PGlite hands us a view of its own buffer: the splitter copies.
          await this.run(batch.bytes, (data) => output.push(data));
          output.end();
          if (batch.listenChanges) await this.fanout.apply(conn, batch.listenChanges);
        } catch (err) {
          this.hangUp(conn, { reason: "backend error", error: err instanceof Error ? err : new Error(String(err)) });
          continue;
        }
        conn.midExtended = !(batch.last === SYNC || batch.last === QUERY || batch.last === STARTUP);
        if (!conn.midExtended && !this.db.isInTransaction()) {
          this.owner = null;
          // Back of the line, so one chatty connection can't starve the rest.
          if (conn.pending.length > 0) this.enqueue(conn);
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  // Hand the backend over in a clean state after a connection leaves: no
  // half-finished extended-protocol sequence (its skip-until-Sync mode would eat
  // the next owner's messages) and no transaction left open.
  private async release(conn: Connection) {
    const db = this.db;
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
    if (this.owner === conn) this.owner = null;
  }
}

// Everything up to and including the next Sync/Query goes to PGlite in one call
// (it loops until its input is consumed), which saves a round trip through the
// mutex and the WASM main loop per message. The startup message and Terminate
// must travel alone: PGlite special-cases them by their first byte.
function takeBatch(conn: Connection): Batch | null {
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
  const msgs: Message[] = conn.pending.splice(0, n);
  const bytes = msgs.length === 1 ? msgs[0]!.bytes : Buffer.concat(msgs.map((m) => m.bytes));
  return { bytes, last, listenChanges: listenChangesIn(msgs) };
}
