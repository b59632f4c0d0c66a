import fs from "node:fs";
import https from "node:https";
import type net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeNetwork, postHttps, type DeliveryNetwork } from "@/server/delivery/https-client";
import { ensureTestCa } from "../helpers/https-receiver";

// A receiver that closes a kept-alive connection just as the worker reuses it (its idle timeout
// racing our next POST) must not cost the delivery an attempt: the client sends again at once on
// a new connection. A connection that fails on its first request is a real failure, not retried.
// The server here resets sockets on purpose: the second request on any connection, and every
// request to /reset-always.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wayline-stale-socket-"));
let server: https.Server;
let base: string;
let network: DeliveryNetwork;
const seen: { path: string; requestOnSocket: number }[] = [];
let connections = 0;

beforeAll(async () => {
  const ca = ensureTestCa(path.join(dir, "ca"));
  const perSocket = new WeakMap<net.Socket, number>();
  server = https.createServer(
    { key: fs.readFileSync(path.join(ca.dir, "server.key")), cert: fs.readFileSync(path.join(ca.dir, "server.pem")) },
    (req, res) => {
      const n = (perSocket.get(req.socket) ?? 0) + 1;
      perSocket.set(req.socket, n);
      seen.push({ path: req.url ?? "", requestOnSocket: n });
      req.resume();
      req.on("end", () => {
        if (n === 2 || req.url === "/reset-always") req.socket.destroy();
        else res.end("{}");
      });
    },
  );
  server.on("connection", () => connections++);
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `https://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  network = makeNetwork({ allowedHosts: ["127.0.0.1"], extraCaPem: fs.readFileSync(ca.certFile, "utf8") });
});

afterAll(async () => {
  network?.agent.destroy();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

const post = (p: string) =>
  postHttps({ url: `${base}${p}`, headers: { "content-type": "application/json" }, body: "{}", network });

describe("a kept-alive socket the receiver resets", () => {
  it("is retried at once on a new connection, and the delivery succeeds", async () => {
    const first = await post("/hook");
    expect(first).toMatchObject({ ok: true, status: 200 });
    const second = await post("/hook");
    expect(second).toMatchObject({ ok: true, status: 200 });
    // Three requests reached the server: the first, the one reset on the reused socket, the resend.
    expect(seen.map((s) => s.requestOnSocket)).toEqual([1, 2, 1]);
    expect(connections).toBe(2);
  });

  it("is not retried when the reset comes on a fresh connection: that is the receiver's failure", async () => {
    network.agent.destroy();
    network = makeNetwork({
      allowedHosts: ["127.0.0.1"],
      extraCaPem: fs.readFileSync(path.join(dir, "ca", "ca.pem"), "utf8"),
    });
    seen.length = 0;
    const result = await post("/reset-always");
    expect(result).toMatchObject({ ok: false, kind: "connect" });
    expect(seen).toHaveLength(1);
  });
});
