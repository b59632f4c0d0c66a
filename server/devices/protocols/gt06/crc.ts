/** CRC-ITU (CRC-16/X-25: polynomial 0x1021 reflected, initial and final 0xFFFF), over a frame's length to serial. */
export function crcItu(bytes: Uint8Array): number {
  let crc = 0xffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0x8408 : crc >>> 1;
  }
  return crc ^ 0xffff;
}
