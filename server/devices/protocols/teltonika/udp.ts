import { ByteReader, Truncated } from "../bytes";
import { decodeAvlData } from "./codecs";
import { udpAck } from "./replies";
import { type DeviceRecord, type Refusal, refusal } from "../record";

// Teltonika over UDP: each datagram carries its own header (length, packet id, a byte 01, the
// AVL packet id, the IMEI) before the AVL data. UDP carries no CRC; the datagram is checked
// against its length field instead.

type UdpPacket = { deviceId: string; records: DeviceRecord[]; reply: Uint8Array };

/** A datagram's IMEI, records and acknowledgement, or why it is refused. */
export function decodeUdpDatagram(datagram: Uint8Array, context: { now: Date }): UdpPacket | Refusal {
  const reader = new ByteReader(datagram);
  try {
    const length = reader.u16();
    if (length !== datagram.length - 2) return refusal(`a length field of ${length} for ${datagram.length - 2} bytes`);
    const packetId = reader.u16();
    reader.u8(); // 01 by the specification, unused
    const avlPacketId = reader.u8();
    const imei = String.fromCharCode(...reader.slice(reader.u16()));
    if (!/^\d{1,20}$/.test(imei)) return refusal("an IMEI that is not digits");
    const decoded = decodeAvlData(reader.slice(reader.remaining), { deviceId: imei, now: context.now });
    if ("refused" in decoded) return decoded;
    return { deviceId: imei, records: decoded.records, reply: udpAck(packetId, avlPacketId, decoded.records.length) };
  } catch (error) {
    if (error instanceof Truncated) return refusal("a datagram shorter than its header");
    throw error;
  }
}
