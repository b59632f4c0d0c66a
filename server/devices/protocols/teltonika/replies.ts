// What the server answers a Teltonika device (docs/devices.md#teltonika). Each is sent only once
// the records it acknowledges are stored: a device resends what was not acknowledged.

/** The IMEI handshake: 01 accepts the device, 00 refuses it (and the connection is closed). */
export const handshakeReply = (known: boolean): Uint8Array => Uint8Array.of(known ? 0x01 : 0x00);

/** After an AVL packet over TCP: the number of records accepted, 4 bytes big-endian. */
export function tcpAck(count: number): Uint8Array {
  const reply = new Uint8Array(4);
  new DataView(reply.buffer).setUint32(0, count);
  return reply;
}

/**
 * After a UDP datagram: its length (5), the datagram's packet id, 01, the AVL packet id and the
 * number of records accepted, as Teltonika's specification shows.
 */
export function udpAck(packetId: number, avlPacketId: number, count: number): Uint8Array {
  return Uint8Array.of(0x00, 0x05, packetId >> 8, packetId & 0xff, 0x01, avlPacketId, count);
}
