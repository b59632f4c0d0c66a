import net from "node:net";
import { StandInError } from "./errors";

// A tracker's TCP connection: bytes written as frames, answers read back a known number of bytes
// at a time, with a deadline. Anything that ends the connection (the gateway closing it, a reset,
// a deadline passed) is a "lost" StandInError: the records of that moment were not acknowledged.

type Waiting = { n: number; resolve: (bytes: Uint8Array) => void; reject: (error: Error) => void };

export class DeviceSocket {
  private buffered = Buffer.alloc(0);
  private waiting: Waiting | null = null;
  private ended: StandInError | null = null;

  private constructor(private readonly socket: net.Socket) {
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      this.serve();
    });
    socket.on("error", (error) => this.end(error.message));
    socket.on("close", () => this.end("the gateway closed the connection"));
  }

  static open(host: string, port: number, timeoutMs: number): Promise<DeviceSocket> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host, port });
      const fail = (message: string) => {
        clearTimeout(timer);
        socket.destroy();
        reject(new StandInError("lost", message));
      };
      const timer = setTimeout(() => fail(`no connection to ${host}:${port} within ${timeoutMs} ms`), timeoutMs);
      const onError = (error: Error) => fail(error.message);
      socket.once("error", onError);
      socket.once("connect", () => {
        clearTimeout(timer);
        socket.removeListener("error", onError);
        resolve(new DeviceSocket(socket));
      });
    });
  }

  write(bytes: Uint8Array): void {
    if (!this.ended) this.socket.write(bytes);
  }

  /** The next `n` bytes the gateway sends; rejects when the connection ends or `timeoutMs` passes first. */
  read(n: number, timeoutMs: number): Promise<Uint8Array> {
    if (this.waiting) throw new Error("one read at a time");
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = null;
        reject(new StandInError("lost", `no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting = {
        n,
        resolve: (bytes) => {
          clearTimeout(timer);
          resolve(bytes);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      this.serve();
    });
  }

  close(): void {
    this.socket.destroy();
    this.end("closed");
  }

  private serve(): void {
    const waiting = this.waiting;
    if (!waiting) return;
    // Bytes that arrived before the connection ended are still the gateway's answer.
    if (this.buffered.length >= waiting.n) {
      this.waiting = null;
      const bytes = Uint8Array.from(this.buffered.subarray(0, waiting.n));
      this.buffered = this.buffered.subarray(waiting.n);
      waiting.resolve(bytes);
    } else if (this.ended) {
      this.waiting = null;
      waiting.reject(this.ended);
    }
  }

  private end(message: string): void {
    this.ended ??= new StandInError("lost", message);
    this.serve();
  }
}
