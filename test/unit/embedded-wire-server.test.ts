import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWireServer } from "../../db/embedded/wire-server";
import { openEmbeddedDatabase } from "../../db/embedded/embedded-database";
import { cstring, int16, int32, message } from "../../db/embedded/protocol";
import type { HangUp } from "../../db/embedded/connection";

// initdb takes seconds; reopening an existing data dir takes a fraction of one.
// So initdb once into a template and give every test its own copy.
let template: string;

beforeAll(async () => {
  template = fs.mkdtempSync(path.join(os.tmpdir(), "wayline-pglite-template-"));
  const db = new PGlite(path.join(template, "pglite"));
  await db.waitReady;
  await db.close();
}, 60_000);

afterAll(() => {
  fs.rmSync(template, { recursive: true, force: true });
});

function tempDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wayline-pglite-"));
  fs.cpSync(path.join(template, "pglite"), path.join(dir, "pglite"), { recursive: true });
  return dir;
}

type Client = postgres.Sql;
type ClientOptions = postgres.Options<Record<string, never>>;

/** Runs `body` against a fresh PGlite behind a wire server, then tears everything down. */
async function withServer(
  body: (ctx: { url: string; port: number; client: (opts?: ClientOptions) => Client }) => Promise<void>,
  onHangUp?: (hangUp: HangUp) => void,
) {
  const dir = tempDataDir();
  const db = new PGlite(path.join(dir, "pglite"));
  const server = await startWireServer({ db, onHangUp });
  const clients: Client[] = [];
  const client = (opts: ClientOptions = {}) => {
    const sql = postgres(server.url, { prepare: false, max: 4, onnotice: () => {}, ...opts });
    clients.push(sql);
    return sql;
  };
  try {
    await body({ url: server.url, port: server.port, client });
  } finally {
    await Promise.all(clients.map((sql) => sql.end({ timeout: 1 })));
    await server.stop();
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("embedded wire server", () => {
  it("answers simple and parameterised queries", async () => {
    await withServer(async ({ client }) => {
      const sql = client();
      expect(await sql.unsafe("select 1 as one")).toEqual([{ one: 1 }]);
      const rows = await sql`select ${41}::int + 1 as answer, ${"wayline"}::text as name, ${null}::text as nothing`;
      expect(rows).toEqual([{ answer: 42, name: "wayline", nothing: null }]);
      await expect(sql`select * from no_such_table`).rejects.toThrow(/no_such_table/);
      // The failed query must not have left the session unusable.
      expect(await sql`select ${"still"}::text as ok`).toEqual([{ ok: "still" }]);
    });
  }, 30_000);

  it("gives each of 8 concurrent clients running 50 parameterised queries its own answers", async () => {
    await withServer(async ({ client }) => {
      const clients = Array.from({ length: 8 }, () => client());
      const started = performance.now();
      // All queries are in flight at once, so postgres.js pipelines them over
      // 8 × 4 sockets and their extended-protocol messages arrive interleaved.
      const results = await Promise.all(
        clients.flatMap((sql, c) =>
          Array.from({ length: 50 }, async (_, i) => {
            const rows =
              await sql`select ${c}::int * 1000 + ${i}::int as n, ${`client ${c} query ${i}`}::text as label`;
            return { c, i, rows };
          }),
        ),
      );
      const elapsed = performance.now() - started;
      for (const { c, i, rows } of results) {
        expect(rows).toEqual([{ n: c * 1000 + i, label: `client ${c} query ${i}` }]);
      }
      console.log(
        `concurrent test: ${results.length} queries in ${elapsed.toFixed(0)} ms (${Math.round((results.length / elapsed) * 1000)} queries/s)`,
      );
    });
  }, 30_000);

  it("keeps an open transaction invisible to another client, whose query waits until commit", async () => {
    await withServer(async ({ client }) => {
      const a = client();
      const b = client();
      await a`create table items (id int primary key)`;

      let inserted!: () => void;
      const insertedP = new Promise<void>((resolve) => (inserted = resolve));
      let commit!: () => void;
      const commitP = new Promise<void>((resolve) => (commit = resolve));
      const events: string[] = [];

      const txDone = a.begin(async (tx) => {
        await tx`insert into items (id) values (1)`;
        inserted();
        await commitP;
        // A still owns the backend and can keep working inside its transaction.
        expect(await tx`select count(*)::int as n from items`).toEqual([{ n: 1 }]);
        events.push("A commits");
      });

      await insertedP;
      const bQuery = b`select count(*)::int as n from items`.then((rows) => {
        events.push("B answered");
        return rows;
      });
      await sleep(300);
      expect(events).toEqual([]);

      commit();
      await txDone;
      expect(await bQuery).toEqual([{ n: 1 }]);
      expect(events).toEqual(["A commits", "B answered"]);
    });
  }, 30_000);

  it("rolls back the transaction of a client whose socket is destroyed and keeps serving", async () => {
    await withServer(async ({ client, port }) => {
      const sockets: net.Socket[] = [];
      const a = client({
        max: 1,
        socket: () =>
          new Promise<postgres.SocketLike>((resolve, reject) => {
            const s = net.connect(port, "127.0.0.1");
            sockets.push(s);
            // net.Socket's overloaded end() does not match SocketLike's one signature; it takes the same calls.
            s.once("connect", () => resolve(s as unknown as postgres.SocketLike));
            s.once("error", reject);
          }),
      });
      const b = client();
      await b`create table items (id int primary key)`;

      let inserted!: () => void;
      const insertedP = new Promise<void>((resolve) => (inserted = resolve));
      const txDone = a
        .begin(async (tx) => {
          await tx`insert into items (id) values (1)`;
          inserted();
          await new Promise(() => {}); // never commits
        })
        .catch((err: unknown) => err);

      await insertedP;
      const bQuery = b`select count(*)::int as n from items`; // queued behind A
      await sleep(100);
      for (const s of sockets) s.destroy();

      expect(await txDone).toBeInstanceOf(Error);
      expect(await bQuery).toEqual([{ n: 0 }]);
      await b`insert into items (id) values (2)`;
      expect(await b`select id from items`).toEqual([{ id: 2 }]);
      // New connections are served too.
      expect(await client()`select ${"hi"}::text as ok`).toEqual([{ ok: "hi" }]);
    });
  }, 30_000);

  it("ends the skip-until-Sync mode left by a client that disconnects after an error before Sync", async () => {
    await withServer(async ({ client, port }) => {
      // Already connected, so its next query goes straight to Parse/Bind/Execute/Sync.
      const sql = client({ max: 1 });
      expect(await sql`select ${1}::int as n`).toEqual([{ n: 1 }]);

      const raw = await rawConnect(port);
      // A Parse error makes the backend discard messages until Sync; then hang up.
      raw.send(message("P", cstring(""), cstring("selec broken"), int16(0)));
      await raw.until("E");
      raw.socket.destroy();

      expect(await sql`select ${7}::int as n`).toEqual([{ n: 7 }]);
    });
  }, 30_000);

  it("discards the writes of a client that disconnects after Execute but before Sync", async () => {
    await withServer(async ({ client, port }) => {
      const sql = client({ max: 1 });
      await sql`create table items (id int primary key)`;

      const raw = await rawConnect(port);
      raw.send(
        Buffer.concat([
          message("P", cstring(""), cstring("insert into items values (1)"), int16(0)),
          message("B", cstring(""), cstring(""), int16(0), int16(0), int16(0)),
          message("E", cstring(""), int32(0)),
        ]),
      );
      await raw.until("C"); // the insert ran, in the implicit transaction Sync would commit
      raw.socket.destroy();

      expect(await sql`select count(*)::int as n from items`).toEqual([{ n: 0 }]);
    });
  }, 30_000);

  it("says why when it closes a client's connection itself, and keeps serving the others", async () => {
    const hangUps: HangUp[] = [];
    await withServer(
      async ({ client, port }) => {
        const sql = client({ max: 1 });
        expect(await sql`select ${1}::int as n`).toEqual([{ n: 1 }]);

        const closed = (socket: net.Socket) => new Promise<void>((resolve) => socket.once("close", () => resolve()));
        // A message whose length field is below the 4 bytes of the field itself.
        const raw = await rawConnect(port);
        const rawClosed = closed(raw.socket);
        raw.send(Buffer.from([0x51, 0, 0, 0, 2]));
        await rawClosed;
        // A startup packet of a protocol version PostgreSQL does not speak.
        const old = net.connect(port, "127.0.0.1");
        const oldClosed = closed(old);
        old.on("error", () => {});
        old.write(Buffer.concat([int32(8), int32(0x00020000)]));
        await oldClosed;
        // A client that hangs up by itself is not a hang-up of the server's.
        const leaving = await rawConnect(port);
        const leavingClosed = closed(leaving.socket);
        leaving.socket.end();
        await leavingClosed;

        expect(await sql`select ${2}::int as n`).toEqual([{ n: 2 }]);
      },
      (hangUp) => hangUps.push(hangUp),
    );
    expect(hangUps.map((h) => h.reason)).toEqual(["malformed message", "unsupported startup"]);
  }, 30_000);

  it("shares one server per data dir and keeps data across stop and reopen", async () => {
    const dir = tempDataDir();
    const marker = path.join(dir, "embedded-db.json");
    try {
      const first = await openEmbeddedDatabase(dir);
      expect(first.owned).toBe(true);
      expect(JSON.parse(fs.readFileSync(marker, "utf8"))).toEqual({ url: first.url, pid: process.pid });

      const second = await openEmbeddedDatabase(dir);
      expect(second).toMatchObject({ url: first.url, owned: false });

      const sql = postgres(second.url, { prepare: false, max: 4, onnotice: () => {} });
      await sql`create table notes (body text)`;
      await sql`insert into notes values (${"persisted"})`;
      await sql.end();
      await second.stop(); // no-op: not the owner
      await first.stop();
      expect(fs.existsSync(marker)).toBe(false);

      // A marker left behind by a dead process is ignored.
      fs.writeFileSync(marker, JSON.stringify({ url: first.url, pid: 2 ** 22 + 1 }));
      const reopened = await openEmbeddedDatabase(dir);
      try {
        expect(reopened.owned).toBe(true);
        const sql2 = postgres(reopened.url, { prepare: false, max: 4, onnotice: () => {} });
        expect(await sql2`select body from notes`).toEqual([{ body: "persisted" }]);
        await sql2.end();
      } finally {
        await reopened.stop();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe("a second process finding the embedded database's server", () => {
  it("shares a server that is busy for 3 s (accepts, answers late) rather than open the files again", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wayline-pglite-busy-"));
    // As the service's wire server is while its PGlite runs a long statement on the same thread: connections
    // are accepted at once, and answered (the SSL request's 'N') only once the statement is done, 3 s from now.
    const sockets = new Set<net.Socket>();
    const busyUntil = Date.now() + 3000;
    const busy = net.createServer((socket) => {
      sockets.add(socket);
      socket.once("data", () =>
        setTimeout(() => socket.writable && socket.write("N"), Math.max(0, busyUntil - Date.now())),
      );
      socket.on("error", () => {});
    });
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    const url = `postgres://postgres@127.0.0.1:${(busy.address() as net.AddressInfo).port}/postgres`;
    try {
      fs.writeFileSync(path.join(dir, "embedded-db.json"), JSON.stringify({ url, pid: process.pid }));
      const opened = await openEmbeddedDatabase(dir);
      expect(opened).toMatchObject({ url, owned: false });
      // It opened no PGlite of its own over the directory.
      expect(fs.existsSync(path.join(dir, "pglite"))).toBe(false);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => busy.close(resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

// Minimal raw protocol client, for sequences postgres.js never sends.
async function rawConnect(port: number) {
  const socket = net.connect(port, "127.0.0.1");
  await new Promise((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  let received = Buffer.alloc(0);
  const waiters: (() => void)[] = [];
  socket.on("data", (d) => {
    received = Buffer.concat([received, d]);
    waiters.splice(0).forEach((w) => w());
  });
  // Resolves once a backend message of this type has arrived (and consumes up to it).
  const until = async (type: string) => {
    for (;;) {
      let at = 0;
      while (at + 5 <= received.length) {
        const end = at + 1 + received.readInt32BE(at + 1);
        if (end > received.length) break;
        if (received[at] === type.charCodeAt(0)) {
          received = received.subarray(end);
          return;
        }
        at = end;
      }
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  const params = Buffer.concat([
    cstring("user"),
    cstring("postgres"),
    cstring("database"),
    cstring("postgres"),
    cstring(""),
  ]);
  const startup = Buffer.alloc(8);
  startup.writeInt32BE(8 + params.length, 0);
  startup.writeInt32BE(196608, 4);
  socket.write(Buffer.concat([startup, params]));
  await until("Z");
  return { socket, until, send: (b: Buffer) => socket.write(b) };
}
