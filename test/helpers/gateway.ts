import dgram from "node:dgram";
import net from "node:net";
import { inject } from "vitest";
import { startGateway, type Gateway } from "@/server/devices/gateway";
import type { ListenerKind, PortPlan } from "@/server/devices/gateway/ports";
import type { Env } from "./api";
import { bytes, gt06Frame } from "./device-reference";
import { TRACCAR_CODEC_8E_VIN } from "@/test/helpers/device-captures";

// The device gateway in the test's own process, on the suite's database (the shared service runs
// none: DEVICE_GATEWAY=off), every listener on a port of its own that the system chose; and a
// device's side of a TCP connection, with frames built from real captures.

const ANY_PORT: Record<ListenerKind, number> = { osmand: 0, teltonika: 0, "teltonika-udp": 0, gt06: 0, shared: 0 };

export type TestGateway = { gateway: Gateway; port(env: Env, kind: ListenerKind): number; stop(): Promise<void> };

export async function startTestGateway({ idleMs = 60_000 } = {}): Promise<TestGateway> {
  // The gateway's modules reach the database the suite's service uses (db/config.ts reads these).
  process.env.DATA_DIR = inject("dataDir");
  if (!inject("embedded")) process.env.DATABASE_URL = inject("databaseUrl");
  const ports: PortPlan = { production: { ...ANY_PORT }, sandbox: { ...ANY_PORT } };
  const gateway = await startGateway({ host: "127.0.0.1", ports, idleMs });
  if (gateway.failed.length > 0) throw new Error(`gateway listeners failed: ${JSON.stringify(gateway.failed)}`);
  return {
    gateway,
    port(env, kind) {
      const bound = gateway.listening.find((l) => l.environment === env && l.kind === kind);
      if (!bound) throw new Error(`no ${kind} listener for ${env}`);
      return bound.port;
    },
    stop: async () => void (await gateway.drain(5_000)),
  };
}

/** The environment a gateway process (or a service that runs one) gets: the suite's database, the offset's ports. */
export function gatewayEnv(offset: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    DATA_DIR: inject("dataDir"),
    DEVICE_HOST: "127.0.0.1",
    DEVICE_PORT_OFFSET: String(offset),
    DRAIN_TIMEOUT_SECONDS: "10",
  };
  if (inject("embedded")) delete env.DATABASE_URL;
  else env.DATABASE_URL = inject("databaseUrl");
  return env;
}

/** A device's end of a TCP connection: what it sends, and what the gateway answers, byte for byte. */
export class DeviceSocket {
  private received = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  private ended = false;

  private constructor(private readonly socket: net.Socket) {
    socket.on("data", (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      this.wake();
    });
    socket.on("close", () => {
      this.ended = true;
      this.wake();
    });
    socket.on("error", () => {});
  }

  static connect(port: number): Promise<DeviceSocket> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, "127.0.0.1", () => resolve(new DeviceSocket(socket)));
      socket.once("error", reject);
    });
  }

  private wake() {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  private async until(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`${what} within ${timeoutMs} ms; received ${this.received.toString("hex")}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  send(data: Uint8Array): void {
    this.socket.write(data);
  }

  /** The next `n` bytes the gateway sent; fails as soon as the connection ends without them. */
  async read(n: number, timeoutMs = 10_000): Promise<string> {
    await this.until(() => this.received.length >= n || this.ended, timeoutMs, `no ${n} bytes`);
    if (this.received.length < n) throw new Error(`the connection ended before ${n} bytes came`);
    const taken = this.received.subarray(0, n);
    this.received = this.received.subarray(n);
    return taken.toString("hex");
  }

  /** Resolves once the gateway has closed the connection, with whatever it sent first (hex). */
  async closed(timeoutMs = 10_000): Promise<string> {
    await this.until(() => this.ended, timeoutMs, "the connection still open");
    return this.received.toString("hex");
  }

  end(): void {
    this.socket.destroy();
  }
}

/** Teltonika's opening: the IMEI's length in two bytes, then its digits. */
export const teltonikaImei = (imei: string) => Uint8Array.of(0, imei.length, ...Buffer.from(imei, "latin1"));

// The record of a Codec 8 Extended packet from a real FMB device (device-captures.ts): one record in
// Vilnius, with 20 IO elements and the VIN as a variable-length one.
const CAPTURED_8E_RECORD = (() => {
  const data = bytes(TRACCAR_CODEC_8E_VIN).subarray(8, -4);
  return data.subarray(2, data.length - 1);
})();

/** Codec 8 Extended AVL data of the captured record, once for each time given (its fix time replaced). */
export function codec8eData(times: Date[]): Uint8Array {
  const data = new Uint8Array(2 + CAPTURED_8E_RECORD.length * times.length + 1);
  data[0] = 0x8e;
  data[1] = times.length;
  times.forEach((at, i) => {
    const offset = 2 + i * CAPTURED_8E_RECORD.length;
    data.set(CAPTURED_8E_RECORD, offset);
    new DataView(data.buffer).setBigUint64(offset, BigInt(at.getTime()));
  });
  data[data.length - 1] = times.length;
  return data;
}

/** The captured record's position, as the data sets carry it. */
export const CAPTURED_8E_WAYPOINT = "54.670853,25.254588";

/** A GT06 login (0x01) for `imei`: its 15 digits as 8 BCD bytes after a 0. */
export const gt06Login = (imei: string, serial: number) => gt06Frame(0x01, bytes(`0${imei}`), serial);

// A GT06 GPS+LBS location (0x12) with the ACC in its course word (ignition on), from traccar/traccar,
// src/test/java/org/traccar/protocol/Gt06ProtocolDecoderTest.java: its content after the type.
const GPS_LBS_IGNITION_ON = "787821121303120b2524c70138e363085b549003d43301940057d200cd52c000006aa1ca0d0a";

/** That location at another time (its six date bytes, UTC) and serial, the CRC computed again. */
export function gt06Location(at: Date, serial: number): Uint8Array {
  const frame = bytes(GPS_LBS_IGNITION_ON);
  const content = frame.slice(4, frame.length - 6);
  content.set(
    [
      at.getUTCFullYear() - 2000,
      at.getUTCMonth() + 1,
      at.getUTCDate(),
      at.getUTCHours(),
      at.getUTCMinutes(),
      at.getUTCSeconds(),
    ],
    0,
  );
  return gt06Frame(0x12, content, serial);
}

/** A GT06 heartbeat (0x23): ACC on, charging, battery 4.05 V, signal 4. */
export const gt06Heartbeat = (serial: number) => gt06Frame(0x23, Uint8Array.of(0b110, 0x01, 0x95, 0x04), serial);

/** A Teltonika UDP datagram: its length, packet id, 01, the AVL packet id, the IMEI, the AVL data. */
export function teltonikaDatagram(imei: string, ids: { packet: number; avl: number }, data: Uint8Array): Uint8Array {
  const head = Uint8Array.of(ids.packet >> 8, ids.packet & 0xff, 0x01, ids.avl, 0, imei.length, ...Buffer.from(imei));
  const length = head.length + data.length;
  return Uint8Array.of(length >> 8, length & 0xff, ...head, ...data);
}

/** Sends a datagram and resolves with the first answer (hex), or null when none came within `timeoutMs`. */
export function sendDatagram(port: number, datagram: Uint8Array, timeoutMs = 5_000): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = dgram.createSocket("udp4");
    const timer = setTimeout(() => {
      socket.close();
      resolve(null);
    }, timeoutMs);
    socket.once("message", (answer) => {
      clearTimeout(timer);
      socket.close();
      resolve(answer.toString("hex"));
    });
    socket.send(datagram, port, "127.0.0.1");
  });
}
