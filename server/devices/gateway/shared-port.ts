import type http from "node:http";
import type net from "node:net";
import { detectProtocol } from "../protocols/detect";
import { Gt06Session } from "./gt06-session";
import type { Drainable } from "./tcp";
import type { SessionContext } from "./tcp-session";
import { TeltonikaSession } from "./teltonika-session";

// The port that speaks all three (docs/devices.md#one-port-for-all-three): the connection's first
// bytes tell the protocol (protocols/detect.ts); until they do, more are awaited (within the idle
// time), and bytes that fit none close it. A Teltonika or GT06 connection becomes that protocol's
// session with the bytes read so far; an HTTP one goes to the environment's OsmAnd server, the
// bytes read so far put back in front of the rest, as if it had accepted the connection itself.

export function acceptShared(socket: net.Socket, context: SessionContext, osmand: http.Server): Drainable {
  let received: Uint8Array = new Uint8Array();
  let session: Drainable | null = null;
  const onTimeout = () => socket.destroy();
  socket.setTimeout(context.idleMs, onTimeout);
  socket.on("error", () => socket.destroy());
  const onData = (chunk: Buffer) => {
    received = received.length === 0 ? chunk : Buffer.concat([received, chunk]);
    const protocol = detectProtocol(received);
    if (protocol === "more") return;
    socket.off("data", onData);
    socket.off("timeout", onTimeout);
    if (protocol === "unknown") return void socket.destroy();
    socket.pause();
    if (protocol === "teltonika") session = new TeltonikaSession(socket, context).start(received);
    else if (protocol === "gt06") session = new Gt06Session(socket, context).start(received);
    else {
      socket.setTimeout(0);
      socket.unshift(received);
      osmand.emit("connection", socket);
    }
    socket.resume();
  };
  socket.on("data", onData);
  return {
    async drain() {
      // A connection still telling its protocol has sent nothing to answer; an HTTP one is the
      // OsmAnd server's, which answers its request in flight with Connection: close.
      if (session) await session.drain();
      else if (detectProtocol(received) === "more") socket.destroy();
    },
  };
}
