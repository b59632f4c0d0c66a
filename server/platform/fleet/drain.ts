import type http from "node:http";
import net from "node:net";
import { processPhase } from "./process-state";

// A graceful stop of the HTTP side. The listening socket closes at once (no new connections; in
// a cluster the primary hands them to the other processes). Connections already accepted stay
// open: a request on one, in flight or arriving during the drain, is answered, with
// `Connection: close`, so that a keep-alive client opens its next connection elsewhere. (Node's
// http close() would also close the connections idle at that moment, failing a request whose
// bytes were on their way: the listening socket is closed with net's close() instead.) Idle
// connections end at their keep-alive timeout. After `timeoutMs` whatever is left is cut: the
// drain is bounded.

/**
 * To be called first thing for every request: an answer whose headers go out while the process
 * drains says `Connection: close`, also when the request came in before the signal.
 */
export function markDraining(res: http.ServerResponse): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: http.ServerResponse, ...args: Parameters<typeof writeHead>) {
    if (processPhase() === "draining" && !this.headersSent) this.setHeader("Connection", "close");
    return writeHead.apply(this, args);
  } as typeof writeHead;
}

/** Resolves true when every connection ended in time, false when the rest had to be cut. */
export function drainServer(server: http.Server, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.closeAllConnections();
      resolve(false);
    }, timeoutMs);
    net.Server.prototype.close.call(server, () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
