import http from "node:http";
import type net from "node:net";

// A small load balancer for the fleet test: a real HTTP proxy (node:http) that sends each
// request to the next of its upstream app processes in turn, as HAProxy or nginx in round-robin
// mode would. Like them it appends the client's address to X-Forwarded-For, and when the request
// cannot have reached an upstream (connection refused, or a kept-alive connection found closed)
// it tries the next one and leaves the refusing one out for a while; a request an upstream
// dropped midway is answered 502, as nginx does, and the client decides to resend.

export type RoundRobinProxy = {
  url: string;
  /** Requests each upstream answered, by its base URL. */
  served: Map<string, number>;
  close(): Promise<void>;
};

export async function startRoundRobinProxy(upstreams: string[]): Promise<RoundRobinProxy> {
  const served = new Map(upstreams.map((u) => [u, 0]));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  let next = 0;
  const downUntil = new Map<string, number>();
  const pick = () => {
    for (let i = 0; i < upstreams.length; i++) {
      const upstream = upstreams[next++ % upstreams.length]!;
      if ((downUntil.get(upstream) ?? 0) <= Date.now()) return upstream;
    }
    return upstreams[next++ % upstreams.length]!;
  };

  const forward = (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse, tries: number) => {
    const upstream = pick();
    const forwardedFor = [req.headers["x-forwarded-for"], req.socket.remoteAddress?.replace(/^::ffff:/, "")]
      .filter(Boolean)
      .join(", ");
    const headers = { ...req.headers, "x-forwarded-for": forwardedFor, "content-length": String(body.length) };
    delete headers.connection;
    const out = http.request(`${upstream}${req.url}`, { method: req.method, headers, agent }, (answer) => {
      served.set(upstream, served.get(upstream)! + 1);
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      answer.on("error", () => res.destroy());
    });
    out.on("error", (error: NodeJS.ErrnoException) => {
      const neverReached =
        error.code === "ECONNREFUSED" || (out.reusedSocket && (error.code === "ECONNRESET" || error.code === "EPIPE"));
      if (error.code === "ECONNREFUSED") downUntil.set(upstream, Date.now() + 2000);
      if (neverReached && tries < upstreams.length + 2) return forward(req, body, res, tries + 1);
      if (!res.headersSent) {
        res.writeHead(502, { "Content-Type": "text/plain" });
        res.end(`bad gateway: ${error.code ?? error.message}`);
      } else res.destroy();
    });
    out.end(body);
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => forward(req, Buffer.concat(chunks), res, 1));
  });
  const sockets = new Set<net.Socket>();
  server.on("connection", (s) => (sockets.add(s), s.on("close", () => sockets.delete(s))));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    close: () =>
      new Promise((resolve) => {
        agent.destroy();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
