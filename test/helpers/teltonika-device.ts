import { teltonikaPacket } from "./device-reference";
import { DeviceSocket, codec8eData, teltonikaImei } from "./gateway";

// A stand-in for a Teltonika tracker that behaves as one does when its server goes away: it keeps
// its records until the server acknowledges them. It connects, sends its IMEI, then its Codec 8
// Extended packets (the captured record of helpers/gateway.ts at times of its own) one at a time,
// each after the previous one's acknowledgement; when the connection breaks, is refused or an
// acknowledgement does not come, it connects again (as soon as the port answers) and sends the
// unacknowledged packet again, whole. The hooks let a test act at the worst moments of a packet's
// first attempt: halfway through writing it, and right after writing it, before its acknowledgement.

export type StandIn = {
  /** Every record's time, packet by packet, as sent. */
  packets: Date[][];
  /** How often each packet was sent (1: acknowledged on its first attempt). */
  attempts: number[];
  connections(): number;
  /** Resolves once every packet is acknowledged; rejects when that takes longer than `timeoutMs`. */
  done: Promise<void>;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function resendingTracker(opts: {
  /** The port to connect to, asked at every connection. */
  port: () => number;
  imei: string;
  packets: Date[][];
  /** After the first half of a packet's first attempt is written; the rest follows when it resolves. */
  midPacket?: (index: number) => Promise<void> | void;
  /** After a packet's first attempt is written whole, before its acknowledgement is awaited. */
  afterPacket?: (index: number) => Promise<void> | void;
  ackTimeoutMs?: number;
  timeoutMs?: number;
}): StandIn {
  const bytes = opts.packets.map((times) => teltonikaPacket(codec8eData(times)));
  const attempts = opts.packets.map(() => 0);
  let connections = 0;
  const deadline = Date.now() + (opts.timeoutMs ?? 90_000);

  async function run(): Promise<void> {
    let next = 0;
    while (next < bytes.length) {
      if (Date.now() > deadline) throw new Error(`packet ${next} of ${bytes.length} still unacknowledged`);
      let socket: DeviceSocket;
      try {
        socket = await DeviceSocket.connect(opts.port());
      } catch {
        await sleep(50); // the server is down: try again shortly, as a tracker does
        continue;
      }
      connections += 1;
      try {
        socket.send(teltonikaImei(opts.imei));
        if ((await socket.read(1, 5_000)) !== "01") throw new Error("the IMEI was refused");
        while (next < bytes.length) {
          const packet = bytes[next]!;
          const first = ++attempts[next]! === 1;
          if (first && opts.midPacket) {
            const half = Math.floor(packet.length / 2);
            socket.send(packet.subarray(0, half));
            await opts.midPacket(next);
            socket.send(packet.subarray(half));
          } else socket.send(packet);
          if (first && opts.afterPacket) await opts.afterPacket(next);
          const ack = await socket.read(4, opts.ackTimeoutMs ?? 5_000);
          if (Number.parseInt(ack, 16) !== opts.packets[next]!.length) throw new Error(`acknowledged ${ack}`);
          next += 1;
        }
      } catch {
        // The connection broke, or no acknowledgement came: connect again and resend.
      } finally {
        socket.end();
      }
    }
  }

  return { packets: opts.packets, attempts, connections: () => connections, done: run() };
}
