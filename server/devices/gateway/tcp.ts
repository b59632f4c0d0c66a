import net from "node:net";

// A TCP listener of the gateway (Teltonika, GT06, the shared port): each accepted connection is
// handed to a session, and the drain stops accepting, lets every session finish and acknowledge what
// it has received, and waits for the connections to end, at most `withinMs`; then it cuts the rest
// (whatever they had not been answered for, their devices send again).

/** What a listener asks of a connection's session when it drains. */
export type Drainable = { drain(): Promise<void> };

export type Listener = { port: number; drain(withinMs: number): Promise<boolean> };

/** Listens on host:port (port 0: any free one); rejects when it cannot (EADDRINUSE, EACCES, …). */
export function listen(server: net.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve((server.address() as net.AddressInfo).port);
    });
  });
}

export async function listenTcp(input: {
  port: number;
  host: string;
  accept: (socket: net.Socket) => Drainable;
}): Promise<Listener> {
  const sockets = new Set<net.Socket>();
  const sessions = new Set<Drainable>();
  const server = net.createServer((socket) => {
    const session = input.accept(socket);
    sockets.add(socket);
    sessions.add(session);
    socket.once("close", () => {
      sockets.delete(socket);
      sessions.delete(session);
    });
  });
  // A listener that fails later (rare: the socket's own error) must not take the process down.
  const port = await listen(server, input.port, input.host);
  server.on("error", () => {});
  return {
    port,
    drain: (withinMs) =>
      new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          for (const socket of sockets) socket.destroy();
          resolve(false);
        }, withinMs);
        server.close(() => {
          clearTimeout(timer);
          resolve(true);
        });
        for (const session of sessions) void session.drain();
      }),
  };
}
