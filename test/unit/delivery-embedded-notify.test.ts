import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { listenChanges } from "@/db/embedded/notify-fanout";
import { startWireServer } from "@/db/embedded/wire-server";

// LISTEN/NOTIFY through the embedded database's wire server, as the delivery queue
// (postgres.js, server/delivery/queue.ts) uses it: notifications sent by one client
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
    expect(listenChanges('LISTEN "jobs:insert"; LISTEN "worker:migrate";')).toEqual({
      listen: ["jobs:insert", "worker:migrate"],
      unlisten: [],
    });
    expect(listenChanges("listen Foo; unlisten bar; UNLISTEN *")).toEqual({ listen: ["foo"], unlisten: ["bar", "*"] });
    expect(listenChanges("select 'not a listen'")).toEqual({ listen: [], unlisten: [] });
  });

  it("delivers a notification to the listening clients, not to others", async () => {
    await withServer(async (url) => {
      const listener = postgres(url, { prepare: false, max: 1, onnotice: () => {} });
      const got: { channel: string; payload: string }[] = [];
      await listener.listen("jobs:insert", (payload) => got.push({ channel: "jobs:insert", payload }));
      await listener.listen("wayline_deliveries", (payload) => got.push({ channel: "wayline_deliveries", payload }));

      const bystander = postgres(url, { prepare: false, max: 1, onnotice: () => {} });
      const bystanderGot: string[] = [];

      const sender = postgres(url, { prepare: false, max: 1, onnotice: () => {} });
      await sender`select pg_notify('jobs:insert', '{"count":1}')`;
      await sender.begin(async (tx) => {
        await tx`select 1`;
        await tx.unsafe(`NOTIFY "jobs:insert", 'in a transaction'`);
        await tx.unsafe(`NOTIFY wayline_deliveries, 'woken'`);
      });
      await until(() => got.length === 3);
      expect(got).toEqual([
        { channel: "jobs:insert", payload: '{"count":1}' },
        { channel: "jobs:insert", payload: "in a transaction" },
        { channel: "wayline_deliveries", payload: "woken" },
      ]);

      // The listener is idle (not owning the backend) when a notification comes; and another
      // client's UNLISTEN of the same channel does not silence it.
      const heard = await bystander.listen("jobs:insert", (payload) => bystanderGot.push(payload));
      await heard.unlisten();
      await sender`select pg_notify('jobs:insert', 'after unlisten')`;
      await until(() => got.length === 4);
      expect(got[3]).toEqual({ channel: "jobs:insert", payload: "after unlisten" });
      await new Promise((r) => setTimeout(r, 100));
      expect(bystanderGot).toEqual([]);
      // Queries keep working on every connection after all this.
      expect(await bystander`select 2 as two`).toEqual([{ two: 2 }]);
      expect(await sender`select 3 as three`).toEqual([{ three: 3 }]);

      await listener.end({ timeout: 1 });
      await bystander.end({ timeout: 1 });
      await sender.end({ timeout: 1 });
    });
  }, 60_000);
});
