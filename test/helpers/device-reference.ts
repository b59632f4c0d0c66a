// The tests' own reference implementations, written from the CRC catalogue's parameters (width,
// polynomial, initial value, reflection, final XOR) rather than from the modules' shortcuts: a
// frame's CRC is judged by this, never by the code under test.

const reflect = (value: number, bits: number) => {
  let out = 0;
  for (let i = 0; i < bits; i++) if (value & (1 << i)) out |= 1 << (bits - 1 - i);
  return out;
};

function crc16(params: { poly: number; init: number; reflected: boolean; xorOut: number }, bytes: Uint8Array): number {
  let crc = params.init;
  for (const raw of bytes) {
    const byte = params.reflected ? reflect(raw, 8) : raw;
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ params.poly) & 0xffff : (crc << 1) & 0xffff;
  }
  if (params.reflected) crc = reflect(crc, 16);
  return (crc ^ params.xorOut) & 0xffff;
}

/** CRC-16/ARC, which Teltonika calls CRC-16/IBM: check value 0xBB3D. */
export const referenceCrcIbm = (bytes: Uint8Array) =>
  crc16({ poly: 0x8005, init: 0, reflected: true, xorOut: 0 }, bytes);

/** CRC-16/X-25, which Concox calls CRC-ITU: check value 0x906E. */
export const referenceCrcItu = (bytes: Uint8Array) =>
  crc16({ poly: 0x1021, init: 0xffff, reflected: true, xorOut: 0xffff }, bytes);

export const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex.replace(/\s+/g, ""), "hex"));
export const hexOf = (data: Uint8Array) => Buffer.from(data).toString("hex");
export const ascii = (text: string) => Uint8Array.from(Buffer.from(text, "latin1"));

/** A Teltonika TCP packet around AVL data: preamble, length, data, CRC-16/IBM in 4 bytes. */
export function teltonikaPacket(data: Uint8Array): Uint8Array {
  const packet = new Uint8Array(8 + data.length + 4);
  const view = new DataView(packet.buffer);
  view.setUint32(4, data.length);
  packet.set(data, 8);
  view.setUint32(8 + data.length, referenceCrcIbm(data));
  return packet;
}

/** A short GT06 frame (78 78) around a type, content and serial, with its CRC-ITU. */
export function gt06Frame(type: number, content: Uint8Array, serial: number): Uint8Array {
  const length = 1 + content.length + 2 + 2;
  const body = Uint8Array.of(length, type, ...content, serial >> 8, serial & 0xff);
  const crc = referenceCrcItu(body);
  return Uint8Array.of(0x78, 0x78, ...body, crc >> 8, crc & 0xff, 0x0d, 0x0a);
}

/** A GT06 frame's message content: between the type and the serial. */
export const gt06Content = (frame: Uint8Array) => frame.subarray(frame[0] === 0x79 ? 5 : 4, frame.length - 6);
