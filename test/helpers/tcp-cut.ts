import net from "node:net";

// A loopback TCP forwarder between a client and the service, for the tests of a connection that
// breaks: every connection is piped to the target as it is; `cut()` destroys the open ones (the
// client's read fails, as when a network drops or a proxy restarts), and while `down` new
// connections are closed as soon as they arrive (the client cannot connect, and backs off);
// `freeze()` stops the open ones carrying bytes but leaves them open (a NAT that forgot the
// connection, a laptop that slept): neither side hears that anything happened.

export type TcpCut = {
  url: string;
  /** Connections accepted so far (refused ones included). */
  accepted(): number;
  cut(): void;
  freeze(): void;
  setDown(down: boolean): void;
  close(): Promise<void>;
};

export async function startTcpCut(targetUrl: string): Promise<TcpCut> {
  const target = new URL(targetUrl);
  const sockets = new Set<net.Socket>();
  const pairs = new Set<[net.Socket, net.Socket]>();
  let down = false;
  let accepted = 0;
  const server = net.createServer((client) => {
    accepted++;
    if (down) return void client.destroy();
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {});
    }
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    client.on("close", () => pairs.delete(pair));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `${target.protocol}//127.0.0.1:${port}`,
    accepted: () => accepted,
    cut: () => sockets.forEach((s) => s.destroy()),
    freeze: () =>
      pairs.forEach(([client, upstream]) => {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }),
    setDown: (value) => void (down = value),
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((s) => s.destroy());
        server.close(() => resolve());
      }),
  };
}
