import { identify } from "../ingest/contacts";
import { submitRecords } from "../ingest/queue";
import { splitFrames } from "../protocols/gt06/frames";
import { decodeFrame } from "../protocols/gt06/messages";
import { TcpSession } from "./tcp-session";

// A GT06 / Concox device over TCP (docs/devices.md#gt06--concox): the login first, answered only
// when a vehicle names the device (otherwise the connection is closed unanswered); then locations,
// statuses, heartbeats and alarms, each answered once its record is committed; messages that carry
// nothing stored are answered at once where the protocol answers them. A frame with a bad CRC, a
// malformed one or a message before the login closes the connection unanswered.

export class Gt06Session extends TcpSession {
  protected readonly protocol = "gt06" as const;

  protected async handleBuffer(): Promise<void> {
    while (!this.closed && this.buffer.length > 0) {
      const split = splitFrames(this.buffer);
      this.buffer = split.rest;
      for (const frame of split.frames) {
        if (this.closed) return;
        await this.frame(frame);
      }
      if (split.refusal && !this.closed) return this.refuse(split.refusal);
      if (split.frames.length === 0) return;
    }
  }

  private async frame(frame: Uint8Array): Promise<void> {
    const message = decodeFrame(frame, { deviceId: this.deviceId, now: new Date() });
    if ("refused" in message) return this.refuse(message.refused);
    if (message.kind === "login") {
      const { environment } = this.context;
      const known = await identify({
        environment,
        deviceId: message.deviceId,
        protocol: this.protocol,
        connection: this.connection,
      });
      if (!known) return this.unknown(message.deviceId);
      this.deviceId = message.deviceId;
      return this.send(message.reply);
    }
    if (message.kind === "records") {
      const outcome = await submitRecords(this.context.environment, {
        deviceId: this.deviceId!,
        protocol: this.protocol,
        records: message.records,
      });
      if (outcome === "unknown") return this.unknown(this.deviceId!);
      return this.send(message.reply);
    }
    if (message.reply) this.send(message.reply);
  }
}
