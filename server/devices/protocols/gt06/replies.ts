import { crcItu } from "./crc";

/**
 * The answer to a message (login, heartbeat, status, location, alarm): the same framing, the
 * message type and its serial, with the CRC-ITU of length to serial. Sent only once the message's
 * records are stored; a device resends what was not answered.
 */
export function replyFrame(type: number, serial: number, long = false): Uint8Array {
  const head = long ? [0x79, 0x79, 0x00, 0x05] : [0x78, 0x78, 0x05];
  const frame = Uint8Array.of(...head, type, serial >> 8, serial & 0xff, 0, 0, 0x0d, 0x0a);
  const crc = crcItu(frame.subarray(2, frame.length - 4));
  frame[frame.length - 4] = crc >> 8;
  frame[frame.length - 3] = crc & 0xff;
  return frame;
}
