import type { DeviceRecord } from "../protocols/record";
import { avlRecordOf, type Codec, encodeAvlData, encodeImei, encodeTcpPacket } from "../protocols/teltonika/encode";
import { MAX_TCP_PACKET } from "../protocols/teltonika/frames";
import { StandInError } from "./errors";
import type { Link } from "./link";
import { DeviceSocket } from "./socket";

// A Teltonika tracker over TCP: the IMEI, answered 01 (00: no vehicle names it); then AVL packets
// of up to `maxRecords` records, each answered with the number of its records. A device keeps what
// was not acknowledged and sends it again on its next connection.

type Options = {
  host: string;
  port: number;
  deviceId: string;
  codec: Codec;
  maxRecords: number;
  timeoutMs: number;
};

/** The most records one AVL packet counts (its count is one byte). */
const MAX_COUNT = 255;

export function teltonikaLink(options: Options): Link {
  let socket: DeviceSocket | null = null;
  const packet = (records: readonly DeviceRecord[]) =>
    encodeTcpPacket(encodeAvlData(options.codec, records.map(avlRecordOf)));
  const connected = () => {
    if (!socket) throw new StandInError("lost", "not connected");
    return socket;
  };
  return {
    async open() {
      socket = await DeviceSocket.open(options.host, options.port, options.timeoutMs);
      socket.write(encodeImei(options.deviceId));
      const [answer] = await socket.read(1, options.timeoutMs);
      if (answer === 0x00)
        throw new StandInError("refused", `the gateway answered 00 to IMEI ${options.deviceId}: no vehicle names it`);
      if (answer !== 0x01) throw new StandInError("lost", `the gateway answered ${answer} to the IMEI`);
    },
    batchOf(records) {
      // As many as fit the packet size a gateway takes by default.
      let n = Math.min(records.length, options.maxRecords, MAX_COUNT);
      while (n > 1 && packet(records.slice(0, n)).length > MAX_TCP_PACKET) n--;
      return Math.max(1, n);
    },
    async send(batch) {
      const link = connected();
      link.write(packet(batch));
      const answer = await link.read(4, options.timeoutMs);
      const count = new DataView(answer.buffer, answer.byteOffset, 4).getUint32(0);
      if (count !== batch.length)
        throw new StandInError("lost", `the gateway acknowledged ${count} of ${batch.length} records`);
    },
    close() {
      socket?.close();
      socket = null;
    },
  };
}
