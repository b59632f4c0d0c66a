import { crc16Ibm } from "./crc";
import { decodeAvlData } from "./codecs";
import { tcpAck } from "./replies";
import { type DeviceRecord, type Refusal, refusal } from "../record";

// Teltonika over TCP: the connection opens with the IMEI (two bytes of length, then its digits),
// then AVL packets follow: four zero bytes, the data length (4 bytes), the AVL data, and the
// CRC-16/IBM of the data in 4 bytes.

/** The largest TCP packet a Teltonika device sends by default, header and CRC included. */
export const MAX_TCP_PACKET = 1280;
export const HEADER = 8;
export const CRC = 4;
const MAX_IMEI = 20;

type TcpFrame = { kind: "imei"; imei: string } | { kind: "avl"; packet: Uint8Array };

/**
 * The complete frames at the start of `buffer` and the bytes after them (a frame not yet whole).
 * `identified` says whether the connection's IMEI has arrived. A refusal ends the connection: the
 * frames before it are still returned.
 */
export function splitTcpFrames(
  buffer: Uint8Array,
  options: { identified: boolean; maxPacketBytes?: number },
): { frames: TcpFrame[]; rest: Uint8Array; refusal: string | null } {
  const max = options.maxPacketBytes ?? MAX_TCP_PACKET;
  const frames: TcpFrame[] = [];
  let identified = options.identified;
  let at = 0;
  const done = (reason: string | null = null) => ({ frames, rest: buffer.subarray(at), refusal: reason });
  while (at < buffer.length) {
    const left = buffer.subarray(at);
    if (!identified) {
      if (left.length < 2) return done();
      const length = (left[0]! << 8) | left[1]!;
      if (length === 0) return done("AVL data before the IMEI");
      if (length > MAX_IMEI) return done(`an IMEI of ${length} bytes`);
      if (left.length < 2 + length) return done();
      const imei = String.fromCharCode(...left.subarray(2, 2 + length));
      if (!/^\d+$/.test(imei)) return done("an IMEI that is not digits");
      frames.push({ kind: "imei", imei });
      identified = true;
      at += 2 + length;
      continue;
    }
    // The preamble is checked as it arrives, so garbage is refused at once.
    for (let i = 0; i < Math.min(4, left.length); i++) if (left[i] !== 0) return done("no AVL packet preamble");
    if (left.length < HEADER) return done();
    const length = new DataView(left.buffer, left.byteOffset, HEADER).getUint32(4);
    if (length < 3) return done("an AVL packet too short for its codec and counts");
    if (HEADER + length + CRC > max) return done(`an AVL packet of ${HEADER + length + CRC} bytes (at most ${max})`);
    if (left.length < HEADER + length + CRC) return done();
    frames.push({ kind: "avl", packet: left.subarray(0, HEADER + length + CRC) });
    at += HEADER + length + CRC;
  }
  return done();
}

/**
 * A whole AVL packet (from splitTcpFrames): its records and the acknowledgement to send once they
 * are stored, or a refusal (a bad CRC, malformed data, an impossible record): then nothing is
 * acknowledged or stored.
 */
export function decodeTcpPacket(
  packet: Uint8Array,
  context: { deviceId: string; now: Date },
): { records: DeviceRecord[]; reply: Uint8Array } | Refusal {
  const view = new DataView(packet.buffer, packet.byteOffset, packet.byteLength);
  const data = packet.subarray(HEADER, packet.length - CRC);
  if (view.getUint32(packet.length - CRC) !== crc16Ibm(data)) return refusal("bad CRC");
  const decoded = decodeAvlData(data, context);
  if ("refused" in decoded) return decoded;
  return { records: decoded.records, reply: tcpAck(decoded.records.length) };
}
