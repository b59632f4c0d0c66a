import type { PGlite } from "@electric-sql/pglite";
import { PARSE, QUERY, type Connection, type Message } from "./connection";
import { cstring, message } from "./protocol";

// LISTEN/NOTIFY over the one shared PGlite session: remember which client connection LISTENed to
// which channel, take NotificationResponse messages out of whatever output the backend produces
// (they appear in the output of the connection whose transaction sent the NOTIFY, since the
// session is shared) and write each one to the sockets listening on its channel, at once, even
// while another connection owns the backend. UNLISTEN by one client does not stop another's
// channel: the backend keeps listening to every channel some client still wants.

const NOTIFICATION_RESPONSE = 0x41; // "A" (backend)

export type ListenChanges = { listen: string[]; unlisten: string[] };

// LISTEN/UNLISTEN statements in a query text: channel names as PostgreSQL folds
// them (quoted: as written; bare: lower case), "*" for UNLISTEN *.
const LISTEN_STATEMENT = /(?:^|;)\s*(UNLISTEN|LISTEN)\s+("(?:[^"]|"")+"|[A-Za-z_][\w$]*|\*)/gi;

export function listenChanges(query: string): ListenChanges {
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

/** The LISTEN/UNLISTEN changes a batch of messages makes, if any. */
export function listenChangesIn(msgs: Message[]): ListenChanges | undefined {
  let changes: ListenChanges | undefined;
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
  return changes;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
const discard = () => {};

export class NotifyFanout {
  constructor(
    private readonly db: PGlite,
    private readonly connections: ReadonlySet<Connection>,
  ) {}

  // Writes a NotificationResponse to every client listening on its channel.
  forward(notification: Buffer) {
    // Int32 length, Int32 pid, then the channel as a C string.
    const end = notification.indexOf(0, 9);
    const channel = notification.toString("utf8", 9, end);
    for (const c of this.connections) {
      if (!c.closed && c.listening.has(channel) && c.socket.writable) c.socket.write(notification);
    }
  }

  // After a batch with LISTEN/UNLISTEN ran: remember the client's channels, and
  // keep the shared backend listening to every channel some client still wants.
  async apply(conn: Connection, changes: ListenChanges) {
    for (const channel of changes.unlisten) {
      if (channel === "*") conn.listening.clear();
      else conn.listening.delete(channel);
    }
    for (const channel of changes.listen) conn.listening.add(channel);
    if (changes.unlisten.length === 0) return;
    const wanted = new Set<string>();
    for (const c of this.connections) for (const channel of c.listening) wanted.add(channel);
    if (wanted.size === 0) return;
    const relisten = message("Q", cstring([...wanted].map((ch) => `LISTEN ${quoteIdent(ch)}`).join("; ")));
    await this.db.runExclusive(() => this.db.execProtocolRawStream(relisten, { onRawData: discard }));
  }
}

// Splits the backend's output stream into messages: NotificationResponses go to
// `notification`, everything else to `write`, in order and in as few writes as
// possible. Output arrives in chunks that need not end on message boundaries.
export class OutputSplitter {
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
