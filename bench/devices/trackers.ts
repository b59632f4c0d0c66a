import net from "node:net";
import { CODEC_8_EXTENDED, IO_EXTERNAL_VOLTAGE, IO_IGNITION } from "../../server/devices/protocols/teltonika/codecs";
import {
  encodeAvlData,
  encodeImei,
  encodeTcpPacket,
  type AvlRecord,
} from "../../server/devices/protocols/teltonika/encode";
import { inParallel } from "../lib/parallel";

// Teltonika trackers for bench:devices: a TCP connection each, opened with the IMEI as a tracker
// does, then Codec 8 Extended packets, each sent only after the previous one's acknowledgement.
// Kept small (a socket, the bytes not yet read, one waiter), so that ten thousand of them in the
// benchmark's process cost it little beside the gateway they load.

/** Records a packet carries: what a tracker that reports every few seconds sends once a minute. */
export const RECORDS_PER_PACKET = 10;
/** IO 240: movement. */
const IO_MOVEMENT = 240;

export class Tracker {
  private received: Buffer = Buffer.alloc(0);
  private waiter: (() => void) | null = null;
  private ended = false;
  /** Records acknowledged on this connection, and the first and last of their times. */
  acknowledged = 0;
  private sent = 0;

  private constructor(
    private readonly socket: net.Socket,
    readonly imei: string,
    private readonly firstFix: number,
    private readonly lane: number,
  ) {
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => {
      this.received = this.received.length === 0 ? chunk : Buffer.concat([this.received, chunk]);
      this.wake();
    });
    socket.on("close", () => {
      this.ended = true;
      this.wake();
    });
    socket.on("error", () => {});
  }

  /**
   * Connects to the gateway and identifies as `imei`; resolves once the gateway answered 01.
   * The tracker's fixes start at `firstFix` (ms), a second apart; `lane` sets where it drives.
   */
  static async open(port: number, imei: string, firstFix: number, lane: number): Promise<Tracker> {
    const socket = await new Promise<net.Socket>((resolve, reject) => {
      const s = net.connect(port, "127.0.0.1", () => {
        s.off("error", reject);
        resolve(s);
      });
      s.once("error", reject);
    });
    const tracker = new Tracker(socket, imei, firstFix, lane);
    socket.write(encodeImei(imei));
    const answer = await tracker.read(1);
    if (answer[0] !== 1) {
      tracker.close();
      throw new Error(`the gateway answered ${answer.toString("hex")} to IMEI ${imei}: no vehicle names it`);
    }
    return tracker;
  }

  private wake() {
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.();
  }

  private async read(n: number, timeoutMs = 30_000): Promise<Buffer> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < n) {
      if (this.ended) throw new Error(`tracker ${this.imei}: the connection ended before an answer`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`tracker ${this.imei}: no answer within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    const taken = this.received.subarray(0, n);
    this.received = this.received.subarray(n);
    return taken;
  }

  /** The next records: a second apart, along a line of its own, ignition on, moving at 40–80 km/h. */
  private nextRecords(): AvlRecord[] {
    return Array.from({ length: RECORDS_PER_PACKET }, () => {
      const n = this.sent++;
      return {
        time: new Date(this.firstFix + n * 1000),
        priority: 0,
        latitude: 39.5 + this.lane * 1e-3 + (n % 100_000) * 1e-5,
        longitude: -83 + (n % 100_000) * 1e-5,
        altitude: 200 + (n % 50),
        angle: 45,
        satellites: 9,
        speedKmh: 40 + (n % 40),
        eventIo: 0,
        io: [
          { id: IO_IGNITION, width: 1, value: 1 },
          { id: IO_MOVEMENT, width: 1, value: 1 },
          { id: IO_EXTERNAL_VOLTAGE, width: 2, value: 12_600 + (n % 200) },
        ],
      };
    });
  }

  /** Sends the next packet and waits for its acknowledgement: the time that took, ms. */
  async report(): Promise<number> {
    const packet = encodeTcpPacket(encodeAvlData(CODEC_8_EXTENDED, this.nextRecords()));
    const began = performance.now();
    this.socket.write(packet);
    const ack = (await this.read(4)).readUInt32BE(0);
    const took = performance.now() - began;
    if (ack !== RECORDS_PER_PACKET) throw new Error(`tracker ${this.imei}: acknowledged ${ack} records`);
    this.acknowledged += RECORDS_PER_PACKET;
    return took;
  }

  /** The time of the first and the last record acknowledged (ms), or null before any. */
  span(): { first: number; last: number } | null {
    return this.acknowledged === 0
      ? null
      : { first: this.firstFix, last: this.firstFix + (this.acknowledged - 1) * 1000 };
  }

  close(): void {
    this.socket.destroy();
  }
}

/** Opens a tracker for each IMEI, `width` handshakes at a time. */
export function openTrackers(
  port: number,
  imeis: string[],
  opts: { firstFix: number; width?: number },
): Promise<Tracker[]> {
  return inParallel(imeis.length, opts.width ?? 100, (i) => Tracker.open(port, imeis[i]!, opts.firstFix, i));
}

export type Drive = { records: number; packets: number; seconds: number; latencies: number[] };

/**
 * Every tracker reports packet after packet, each after the previous one's acknowledgement, until
 * `seconds` have passed; then the packets in flight are awaited. The time is to the last
 * acknowledgement, so every record counted was stored within it.
 */
export async function drive(trackers: Tracker[], seconds: number): Promise<Drive> {
  const latencies: number[] = [];
  const began = performance.now();
  const until = began + seconds * 1000;
  let packets = 0;
  await Promise.all(
    trackers.map(async (tracker) => {
      while (performance.now() < until) {
        latencies.push(await tracker.report());
        packets++;
      }
    }),
  );
  return {
    records: packets * RECORDS_PER_PACKET,
    packets,
    seconds: (performance.now() - began) / 1000,
    latencies,
  };
}
