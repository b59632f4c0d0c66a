import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { freshDatabase, type FreshDatabase } from "@/test/helpers/fresh-database";
import { freePort, startApp, serviceEnv, spawnApp, stopProcess } from "@/test/helpers/processes";

// `npm start` on a port another socket holds (docs/operations.md#start-up): the start ends, exit
// code 1, and its fatal log line says why. It once went on instead: the listen error reached
// Next.js's uncaught-exception handler, which logged it and kept a process that served nothing,
// so whatever waited for it to answer waited out its whole timeout.

// Made in beforeAll, not as the module loads: on the embedded pass this file's tests are filtered
// out, Vitest then runs none of its hooks, and a directory made at load was left in /tmp each run.
let dataDir = "";
const databases: FreshDatabase[] = [];
const holder = net.createServer();

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "wayline-port-in-use-"));
});

afterAll(async () => {
  await new Promise((resolve) => holder.close(resolve));
  for (const database of databases) await database.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

type LogLine = { level: string; msg: string; err?: { code?: string; message: string } };

// One process (as CI's Playwright service runs), and a fleet: there the HTTP processes fail to
// listen and the primary, which once forked them again every second for ever, ends the start.
it.each([1, 2])(
  "a port already taken ends the start (%i HTTP processes) with exit code 1 and the reason, not a process that never answers",
  async (processes) => {
    if (!holder.listening) await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const port = (holder.address() as net.AddressInfo).port;
    const database = await freshDatabase(inject("databaseUrl"), "port_in_use");
    databases.push(database);
    const env = { ...serviceEnv({ port, dataDir, databaseUrl: database.url }), WEB_CONCURRENCY: String(processes) };
    const service = spawnApp(env);
    const exit = new Promise<number | null>((resolve) => service.child.once("exit", (code) => resolve(code)));
    const code = await Promise.race([
      exit,
      new Promise<"running">((resolve) => setTimeout(resolve, 60_000, "running")),
    ]);
    if (code === "running") await stopProcess(service.child);
    expect(code, service.output()).toBe(1);
    const fatal = service
      .output()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as LogLine)
      .filter((entry) => entry.level === "fatal");
    expect(fatal[0], service.output()).toMatchObject({
      msg: "the service could not start",
      err: { code: "EADDRINUSE", message: expect.stringContaining(`127.0.0.1:${port}`) },
    });
    if (processes > 1)
      expect(fatal.map((entry) => entry.msg)).toContain("the service could not start: an HTTP process ended");
  },
);

// The test helper's side of it: a port freePort() found free can be taken before the service binds
// it, and a CI run once lost a file's service so. startApp starts again on another port, and
// does not take an answer from whatever holds the port for its own service's: here a server that
// answers the health check with 200, as another file's service would.
it("the test helper starts its service again on another port when the one it chose is taken, even by a service that answers", async () => {
  const impostor = http.createServer((_req, res) =>
    res.writeHead(200, { "Content-Type": "application/json" }).end("{}"),
  );
  await new Promise<void>((resolve) => impostor.listen(0, "127.0.0.1", resolve));
  const taken = (impostor.address() as net.AddressInfo).port;
  const database = await freshDatabase(inject("databaseUrl"), "port_retry");
  databases.push(database);
  const offered: number[] = [];
  try {
    const service = await startApp({
      name: "port-retry",
      databaseUrl: database.url,
      choosePort: async () => {
        const port = offered.length === 0 ? taken : await freePort();
        offered.push(port);
        return port;
      },
    });
    try {
      expect(offered).toHaveLength(2);
      expect(service.baseUrl).toBe(`http://127.0.0.1:${offered[1]}`);
      const health = await fetch(`${service.baseUrl}/api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: "ok" });
    } finally {
      await service.stop();
    }
  } finally {
    await new Promise((resolve) => impostor.close(resolve));
  }
});
