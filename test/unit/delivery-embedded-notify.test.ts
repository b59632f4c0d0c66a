import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { listenChanges, startWireServer } from "@/db/embedded/wire-server";

// LISTEN/NOTIFY through the embedded database's wire server, as the delivery queue
// (graphile-worker on node-postgres) and postgres.js use it: notifications sent by one client
// connection reach the connections that LISTEN, and only those.

async function withServer(body: (url: string) => Promise<void>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wayline-notify-"));
  const db = new PGlite(path.join(dir, "pglite"));
  const server = await startWireServer({ db });
  try {
    await body(server.url);
  } finally {
    await server.stop();
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const until = async (check: () => boolean, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe("embedded wire server: LISTEN/NOTIFY", () => {
  it("reads the channels of LISTEN and UNLISTEN statements", () => {
    expect(listenChanges('LISTEN "jobs:insert"; LISTEN "worker:migrate";')).toEqual({ listen: ["jobs:insert", "worker:migrate"], unlisten: [] });
    expect(listenChanges("listen Foo; unlisten bar; UNLISTEN *")).toEqual({ listen: ["foo"], unlisten: ["bar", "*"] });
    expect(listenChanges("select 'not a listen'")).toEqual({ listen: [], unlisten: [] });
  });

  it("delivers a notification to the listening node-postgres and postgres.js clients, not to others", async () => {
    await withServer(async (url) => {
      const listener = new pg.Client({ connectionString: url });
      await listener.connect();
      const pgGot: { channel: string; payload?: string }[] = [];
      listener.on("notification", (n) => pgGot.push({ channel: n.channel, payload: n.payload }));
      await listener.query('LISTEN "jobs:insert"; LISTEN "worker:migrate"');

      const js = postgres(url, { prepare: false, max: 2, onnotice: () => {} });
      const jsGot: string[] = [];
      await js.listen("deliveries", (payload) => jsGot.push(payload));

      const bystander = new pg.Client({ connectionString: url });
      await bystander.connect();
      const bystanderGot: unknown[] = [];
      bystander.on("notification", (n) => bystanderGot.push(n));

      const sender = postgres(url, { prepare: false, max: 1, onnotice: () => {} });
      await sender`select pg_notify('jobs:insert', '{"count":1}')`;
      await sender.begin(async (tx) => {
        await tx`select 1`;
        await tx.unsafe(`NOTIFY "jobs:insert", 'in a transaction'`);
        await tx.unsafe(`NOTIFY deliveries, 'for postgres.js'`);
      });
      await until(() => pgGot.length === 2 && jsGot.length === 1);
      expect(pgGot).toEqual([
        { channel: "jobs:insert", payload: '{"count":1}' },
        { channel: "jobs:insert", payload: "in a transaction" },
      ]);
      expect(jsGot).toEqual(["for postgres.js"]);

      // The listener is idle (not owning the backend) when a notification comes; and another
      // client's UNLISTEN of the same channel does not silence it.
      await bystander.query('LISTEN "jobs:insert"');
      await bystander.query('UNLISTEN "jobs:insert"');
      await sender`select pg_notify('jobs:insert', 'after unlisten')`;
      await until(() => pgGot.length === 3);
      expect(pgGot[2]).toEqual({ channel: "jobs:insert", payload: "after unlisten" });
      await new Promise((r) => setTimeout(r, 100));
      expect(bystanderGot).toEqual([]);
      // Queries keep working on every connection after all this.
      expect((await bystander.query("select 2 as two")).rows).toEqual([{ two: 2 }]);
      expect(await sender`select 3 as three`).toEqual([{ three: 3 }]);

      await listener.end();
      await bystander.end();
      await js.end({ timeout: 1 });
      await sender.end({ timeout: 1 });
    });
  }, 60_000);
});
