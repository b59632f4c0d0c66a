import { identify } from "../ingest/contacts";
import { submitRecords } from "../ingest/queue";
import { decodeTcpPacket, splitTcpFrames } from "../protocols/teltonika/frames";
import { handshakeReply } from "../protocols/teltonika/replies";
import { TcpSession } from "./tcp-session";

// A Teltonika device over TCP (docs/devices.md#teltonika): the IMEI first, answered 01 when a
// vehicle names it and 00 (then closed) when none does; then AVL packets, each answered with its
// record count once its records are committed. A packet that fails its CRC, or any malformed bytes,
// close the connection unanswered, and nothing of that packet is stored: the device sends it again.

export class TeltonikaSession extends TcpSession {
  protected readonly protocol = "teltonika" as const;

  protected async handleBuffer(): Promise<void> {
    while (!this.closed && this.buffer.length > 0) {
      const split = splitTcpFrames(this.buffer, { identified: this.deviceId !== null });
      this.buffer = split.rest;
      for (const frame of split.frames) {
        if (this.closed) return;
        if (frame.kind === "imei") await this.handshake(frame.imei);
        else await this.packet(frame.packet);
      }
      if (split.refusal && !this.closed) return this.refuse(split.refusal);
      if (split.frames.length === 0) return;
    }
  }

  private async handshake(imei: string): Promise<void> {
    const known = await identify({ ...this.identity(imei), connection: this.connection });
    this.send(handshakeReply(known));
    if (known) this.deviceId = imei;
    else this.unknown(imei);
  }

  private async packet(packet: Uint8Array): Promise<void> {
    const deviceId = this.deviceId!;
    const decoded = decodeTcpPacket(packet, { deviceId, now: new Date() });
    if ("refused" in decoded) return this.refuse(decoded.refused);
    if (decoded.records.length > 0) {
      const outcome = await submitRecords(this.context.environment, {
        deviceId,
        protocol: this.protocol,
        records: decoded.records,
      });
      // The vehicle stopped naming the device since the handshake.
      if (outcome === "unknown") return this.unknown(deviceId);
    }
    this.send(decoded.reply);
  }

  private identity(deviceId: string) {
    return { environment: this.context.environment, deviceId, protocol: this.protocol };
  }
}
