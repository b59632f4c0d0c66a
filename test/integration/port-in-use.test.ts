// @module-tag processes
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, inject, it } from "vitest";
import { freshDatabase, type FreshDatabase } from "../helpers/fresh-database";
import { serviceEnv, startService, stopProcess } from "../helpers/processes";

// `npm start` on a port another socket holds (docs/operations.md#start-up): the start ends, exit
// code 1, and its fatal log line says why. It once went on instead: the listen error reached
// Next.js's uncaught-exception handler, which logged it and kept a process that served nothing,
// so whatever waited for it to answer waited out its whole timeout.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "wayline-port-in-use-"));
let database: FreshDatabase | undefined;
const holder = net.createServer();

afterAll(async () => {
  await new Promise((resolve) => holder.close(resolve));
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it("a port already taken ends the start with exit code 1 and the reason, not a process that never answers", async () => {
  await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
  const port = (holder.address() as net.AddressInfo).port;
  database = await freshDatabase(inject("databaseUrl"), "port_in_use");
  const service = startService(serviceEnv({ port, dataDir, databaseUrl: database.url }));
  const exit = new Promise<number | null>((resolve) => service.child.once("exit", (code) => resolve(code)));
  const code = await Promise.race([exit, new Promise<"running">((resolve) => setTimeout(resolve, 60_000, "running"))]);
  if (code === "running") await stopProcess(service.child);
  expect(code, service.output()).toBe(1);
  const fatal = service
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { level: string; msg: string; err?: { code?: string; message: string } })
    .find((entry) => entry.level === "fatal");
  expect(fatal, service.output()).toMatchObject({
    msg: "the service could not start",
    err: { code: "EADDRINUSE", message: expect.stringContaining(`127.0.0.1:${port}`) },
  });
});
