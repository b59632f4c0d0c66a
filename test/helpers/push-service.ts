import { createECDH, randomBytes } from "node:crypto";
import fs from "node:fs";
import https from "node:https";
import type net from "node:net";
import path from "node:path";
import { decryptWebPush, verifyVapid } from "./web-push-decrypt";

// A push service stand-in (RFC 8030) on loopback, over HTTPS with a certificate of the app's test CA
// (which the app trusts through DELIVERY_CA_FILE; DELIVERY_ALLOWED_HOSTS lets it reach 127.0.0.1).
// It hands out subscriptions as a browser would make them: a P-256 key pair and an auth secret made
// here, an endpoint of its own. A POST to an endpoint must carry a VAPID token (RFC 8292) signed
// with the key the subscription was made for and addressed to this origin, a TTL, and an aes128gcm
// body, which it decrypts with its own implementation (web-push-decrypt.ts). It answers 201 (RFC 8030
// §5), or what the test told it to for that endpoint (410, 404, 500).

type PushedMessage = {
  /** The decrypted payload, as text. */
  text: string;
  ttl: string;
  urgency: string | undefined;
  vapid: { sub: string; aud: string; exp: number };
};

/** A browser's subscription: what PushSubscription.toJSON() gives, and what arrived for it. */
export type BrowserSubscription = {
  endpoint: string;
  toJSON(): { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
  /** Messages accepted and decrypted for this subscription. */
  messages: PushedMessage[];
  /** POSTs to the endpoint, whatever was answered. */
  posts: number;
};

export type PushService = {
  origin: string;
  /** A new subscription made with the site's VAPID public key (its applicationServerKey). */
  subscribe(applicationServerKey: string): BrowserSubscription;
  /** Answer this status to every later POST to the endpoint. */
  answer(endpoint: string, status: number): void;
  /** Requests refused for a protocol error (bad token, missing TTL, undecryptable body), with the reason. */
  refusals: string[];
  close(): Promise<void>;
};

type Channel = BrowserSubscription & { privateKey: Buffer; authSecret: Buffer; serverKey: string; status: number };

export async function startPushService(app: { dataDir: string }): Promise<PushService> {
  const ca = path.join(app.dataDir, "test-ca");
  const channels = new Map<string, Channel>();
  const refusals: string[] = [];
  const sockets = new Set<net.Socket>();
  let origin = "";

  const server = https.createServer(
    { key: fs.readFileSync(path.join(ca, "server.key")), cert: fs.readFileSync(path.join(ca, "server.pem")) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const answer = (status: number, text = "") => {
          res.writeHead(status, { "content-type": "text/plain" });
          res.end(text);
        };
        const refuse = (status: number, reason: string) => {
          refusals.push(reason);
          answer(status, reason);
        };
        const channel = channels.get(new URL(req.url ?? "/", origin).pathname);
        if (req.method !== "POST" || !channel) return answer(404, "no such subscription");
        channel.posts++;
        let vapid;
        try {
          vapid = verifyVapid(req.headers.authorization, origin);
        } catch (error) {
          return refuse(401, `VAPID: ${(error as Error).message}`);
        }
        // RFC 8292 §4.2: a subscription made with an application server key takes only that key's tokens.
        if (vapid.key !== channel.serverKey) return refuse(403, "VAPID key is not the subscription's");
        const ttl = req.headers.ttl;
        if (typeof ttl !== "string" || !/^\d+$/.test(ttl)) return refuse(400, "TTL missing (RFC 8030 §5.2)");
        if (req.headers["content-encoding"] !== "aes128gcm") return refuse(415, "Content-Encoding is not aes128gcm");
        if (channel.status !== 201) return answer(channel.status, "told to answer so");
        let text: string;
        try {
          text = decryptWebPush(Buffer.concat(chunks), channel).plaintext.toString("utf8");
        } catch (error) {
          return refuse(400, `decryption: ${(error as Error).message}`);
        }
        const urgency = req.headers.urgency;
        channel.messages.push({
          text,
          ttl,
          urgency: typeof urgency === "string" ? urgency : undefined,
          vapid: { sub: vapid.sub, aud: vapid.aud, exp: vapid.exp },
        });
        res.writeHead(201, { location: `${origin}/message/${randomBytes(8).toString("hex")}` });
        res.end();
      });
    },
  );
  server.on("connection", (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  origin = `https://127.0.0.1:${(server.address() as net.AddressInfo).port}`;

  return {
    origin,
    subscribe(applicationServerKey) {
      const ecdh = createECDH("prime256v1");
      ecdh.generateKeys();
      const authSecret = randomBytes(16);
      const pathname = `/push/${randomBytes(12).toString("base64url")}`;
      const endpoint = origin + pathname;
      const channel: Channel = {
        endpoint,
        messages: [],
        posts: 0,
        privateKey: ecdh.getPrivateKey(),
        authSecret,
        serverKey: applicationServerKey,
        status: 201,
        toJSON: () => ({
          endpoint,
          expirationTime: null,
          keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: authSecret.toString("base64url") },
        }),
      };
      channels.set(pathname, channel);
      return channel;
    },
    answer(endpoint, status) {
      const channel = channels.get(new URL(endpoint).pathname);
      if (!channel) throw new Error(`no subscription ${endpoint}`);
      channel.status = status;
    },
    refusals,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
