import { randomUUID } from "node:crypto";
import type net from "node:net";
import type { Environment } from "@/db/schema";
import { logger } from "@/server/platform/log";
import { endConnection, recordRefusal, type DeviceProtocol } from "../ingest/contacts";
import { logUnknownDevice } from "../unknown-ids";

// What a tracker's TCP connection has in common, whatever its protocol: the bytes received and
// not yet taken as frames, handled one frame at a time in order (a frame's acknowledgement waits
// for its commit, and the next frame waits for that), the idle timeout, the refusal that closes the
// connection (recorded for a device already identified), and the drain. A protocol's session
// (teltonika-session.ts, gt06-session.ts) says how its bytes split into frames and what each needs.

/** How long a connection this side has ended may stay open before it is cut off. */
const CLOSE_GRACE_MS = 2_000;

/** Unhandled bytes past which the connection stops reading until its frames are handled. */
const PAUSE_ABOVE = 16 * 1024;

export type SessionContext = { environment: Environment; idleMs: number };

export abstract class TcpSession {
  protected buffer: Uint8Array = new Uint8Array();
  /** The device's id once its first frame named it and a vehicle names it. */
  protected deviceId: string | null = null;
  protected readonly connection = randomUUID();
  private work: Promise<void> = Promise.resolve();
  private draining = false;
  protected closed = false;
  protected abstract readonly protocol: DeviceProtocol;

  constructor(
    protected readonly socket: net.Socket,
    protected readonly context: SessionContext,
  ) {
    socket.setNoDelay(true);
    socket.setTimeout(context.idleMs, () => socket.destroy());
    socket.on("data", (chunk: Buffer) => this.received(chunk));
    socket.on("error", (error) => logger.debug({ err: error, remote: this.remote }, "device connection error"));
    socket.on("close", () => this.ended());
  }

  /** Hands the session the bytes read before it existed (the shared port's first bytes). */
  start(initial: Uint8Array): this {
    if (initial.length > 0) this.received(initial);
    return this;
  }

  protected get remote(): string {
    return `${this.socket.remoteAddress}:${this.socket.remotePort}`;
  }

  private received(chunk: Uint8Array): void {
    if (this.closed) return;
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    if (this.buffer.length > PAUSE_ABOVE) this.socket.pause();
    this.work = this.work.then(async () => {
      if (this.closed) return;
      try {
        await this.handleBuffer();
      } catch (error) {
        // The database unreachable, most likely: nothing is acknowledged, the device sends again.
        logger.error(
          { err: error, protocol: this.protocol, deviceId: this.deviceId },
          "device gateway: frame not stored",
        );
        this.close();
      }
      if (!this.closed && !this.draining) this.socket.resume();
    });
  }

  /** Takes the frames complete in `buffer`, in order; leaves in it what is not yet a whole frame. */
  protected abstract handleBuffer(): Promise<void>;

  protected send(bytes: Uint8Array): void {
    if (!this.closed) this.socket.write(bytes);
  }

  /**
   * Ends the connection once what was written has gone. A device that keeps its side open (it
   * goes on sending, or simply never closes) is cut off CLOSE_GRACE_MS later. A timer of its own:
   * the idle timeout restarts with every byte the device sends.
   */
  protected close(): void {
    if (this.closed) return;
    this.closed = true;
    this.socket.end();
    const cutOff = setTimeout(() => this.socket.destroy(), CLOSE_GRACE_MS).unref();
    this.socket.once("close", () => clearTimeout(cutOff));
  }

  /** Bytes or a frame the protocol refuses: recorded for an identified device, and the connection closed. */
  protected refuse(reason: string): void {
    logger.debug(
      { protocol: this.protocol, deviceId: this.deviceId, remote: this.remote, reason },
      "device frame refused",
    );
    const deviceId = this.deviceId;
    this.closed = true;
    this.socket.destroy();
    if (!deviceId) return;
    recordRefusal({ environment: this.context.environment, deviceId, protocol: this.protocol, reason }).catch(
      (error: unknown) => logger.warn({ err: error, deviceId }, "device gateway: a refusal not recorded"),
    );
  }

  /** The id a first frame named, which no vehicle names: logged (at most once a minute), the connection closed. */
  protected unknown(deviceId: string): void {
    logUnknownDevice({ environment: this.context.environment, deviceId, protocol: this.protocol, remote: this.remote });
    this.close();
  }

  /** Stops reading, handles what was received in full, then ends the connection. */
  async drain(): Promise<void> {
    this.draining = true;
    this.socket.pause();
    await this.work;
    this.close();
  }

  private ended(): void {
    this.closed = true;
    const deviceId = this.deviceId;
    if (!deviceId) return;
    endConnection({ environment: this.context.environment, deviceId, connection: this.connection }).catch(
      (error: unknown) => logger.warn({ err: error, deviceId }, "device gateway: a connection's end not recorded"),
    );
  }
}
