import { execFileSync } from "node:child_process";
import fs from "node:fs";
import https from "node:https";
import type net from "node:net";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { reportWebhookProblem } from "./webhook-problems";

// A real HTTPS webhook receiver on loopback, with a certificate from a CA made for the test run
// by the openssl CLI (the service trusts that CA through DELIVERY_CA_FILE). Every request is
// recorded; what it answers is up to the test. Every signed webhook is checked against the event
// catalog's schema of its type (webhook-schemas.ts): a body that does not match fails the test.

export type TestCa = { dir: string; certFile: string; keyFile: string };

/** Creates (once per directory) a CA and a server certificate for 127.0.0.1 and localhost. */
export function ensureTestCa(dir: string): TestCa {
  const certFile = path.join(dir, "ca.pem");
  const keyFile = path.join(dir, "ca.key");
  if (!fs.existsSync(path.join(dir, "server.pem"))) {
    fs.mkdirSync(dir, { recursive: true });
    const run = (args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
    run([
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:P-256",
      "-nodes",
      "-keyout",
      "ca.key",
      "-out",
      "ca.pem",
      "-days",
      "2",
      "-subj",
      "/CN=Wayline test CA",
      "-addext",
      "basicConstraints=critical,CA:TRUE",
      "-addext",
      "keyUsage=critical,keyCertSign,cRLSign",
    ]);
    run([
      "req",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:P-256",
      "-nodes",
      "-keyout",
      "server.key",
      "-out",
      "server.csr",
      "-subj",
      "/CN=127.0.0.1",
    ]);
    fs.writeFileSync(
      path.join(dir, "server.ext"),
      "subjectAltName=IP:127.0.0.1,IP:127.0.0.2,DNS:localhost\nextendedKeyUsage=serverAuth\n",
    );
    run([
      "x509",
      "-req",
      "-in",
      "server.csr",
      "-CA",
      "ca.pem",
      "-CAkey",
      "ca.key",
      "-CAcreateserial",
      "-out",
      "server.pem",
      "-days",
      "2",
      "-extfile",
      "server.ext",
    ]);
  }
  return { dir, certFile, keyFile };
}

/** A certificate for 127.0.0.1 signed by a CA nobody trusts (for the "invalid certificate" case). */
export function untrustedCertificate(dir: string): { key: string; cert: string } {
  if (!fs.existsSync(path.join(dir, "rogue.pem"))) {
    fs.mkdirSync(dir, { recursive: true });
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-nodes",
        "-keyout",
        "rogue.key",
        "-out",
        "rogue.pem",
        "-days",
        "2",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
      ],
      { cwd: dir, stdio: "pipe" },
    );
  }
  return {
    key: fs.readFileSync(path.join(dir, "rogue.key"), "utf8"),
    cert: fs.readFileSync(path.join(dir, "rogue.pem"), "utf8"),
  };
}

export type ReceivedRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: string;
  receivedAt: number;
};
type Reply = { status: number; headers?: Record<string, string>; body?: string; delayMs?: number };
type Handler = (req: ReceivedRequest) => Reply | Promise<Reply>;

export type HttpsReceiver = {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Requests to one path (without the query). */
  on(pathname: string): ReceivedRequest[];
  /** The answer for a path (default: 200 `{}`). */
  route(pathname: string, handler: Handler): void;
  /** TCP connections accepted so far. */
  connections(): number;
  /** Webhook bodies that did not match their event-catalog schema (close() rejects when there are any). */
  schemaProblems: string[];
  close(): Promise<void>;
};

export async function startHttpsReceiver({
  ca,
  host = "127.0.0.1",
  tlsOverride,
}: {
  ca: TestCa;
  host?: string;
  tlsOverride?: { key: string; cert: string };
}): Promise<HttpsReceiver> {
  // Loaded here rather than imported at the top: ajv and the catalog's schemas cost about 0.2 s a
  // file, and many files import this module (through app-with-own-database.ts) without starting a receiver.
  const { webhookBodyProblem } = await import("./webhook-schemas");
  const requests: ReceivedRequest[] = [];
  const schemaProblems: string[] = [];
  const routes = new Map<string, Handler>();
  let accepted = 0;
  const sockets = new Set<net.Socket>();
  const server = https.createServer(
    tlsOverride ?? {
      key: fs.readFileSync(path.join(ca.dir, "server.key")),
      cert: fs.readFileSync(path.join(ca.dir, "server.pem")),
    },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const url = new URL(req.url ?? "/", "https://receiver");
        const received: ReceivedRequest = {
          method: req.method ?? "",
          path: url.pathname,
          query: url.searchParams,
          headers: Object.fromEntries(
            Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]),
          ),
          body: Buffer.concat(chunks).toString("utf8"),
          receivedAt: Date.now(),
        };
        requests.push(received);
        if (received.method === "POST" && received.headers["webhook-id"]) {
          const problem = webhookBodyProblem(received.body);
          if (problem) {
            schemaProblems.push(problem);
            reportWebhookProblem(problem);
          }
        }
        void Promise.resolve((routes.get(url.pathname) ?? ((): Reply => ({ status: 200, body: "{}" })))(received)).then(
          async (reply) => {
            if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
            if (res.destroyed) return;
            res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
            res.end(reply.body ?? "");
          },
        );
      });
    },
  );
  server.on("connection", (socket: net.Socket) => {
    accepted++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `https://${host}:${port}`,
    port,
    requests,
    on: (pathname) => requests.filter((r) => r.path === pathname),
    route: (pathname, handler) => void routes.set(pathname, handler),
    connections: () => accepted,
    schemaProblems,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const s of sockets) s.destroy();
        server.close(() =>
          schemaProblems.length > 0
            ? reject(new Error(`Webhook bodies outside the event catalog:\n${schemaProblems.join("\n")}`))
            : resolve(),
        );
      }),
  };
}

/**
 * A receiver that an app's deliveries trust: its certificate from the test CA in the app's data dir
 * (the one DELIVERY_CA_FILE names: test/helpers/processes.ts#serviceEnv).
 */
export function startHttpsReceiverFor(app: { dataDir: string }): Promise<HttpsReceiver> {
  const ca = path.join(app.dataDir, "test-ca");
  return startHttpsReceiver({ ca: { dir: ca, certFile: path.join(ca, "ca.pem"), keyFile: path.join(ca, "ca.key") } });
}

/** Verifies a received webhook the way a partner would, with the standardwebhooks library. */
export function verifyWebhook(secret: string, req: ReceivedRequest): unknown {
  return new Webhook(secret).verify(req.body, {
    "webhook-id": req.headers["webhook-id"] ?? "",
    "webhook-timestamp": req.headers["webhook-timestamp"] ?? "",
    "webhook-signature": req.headers["webhook-signature"] ?? "",
  });
}
