// GT06 / Concox framing: 78 78, a length byte, the message, 0D 0A (the short frame), or 79 79 and
// a length of two bytes (the long one). The length counts the type, the content, the serial and
// the CRC, so a frame is the length plus 5 bytes (short) or 6 (long).

/** The longest long frame taken: the messages decoded here are far shorter. */
export const MAX_LONG_FRAME = 1024;
const SHORTEST = 5; // type, serial, CRC

/**
 * The complete frames at the start of `buffer` and the bytes after them (a frame not yet whole).
 * A refusal (garbage, a length out of bounds, no stop bits) ends the connection; the frames before
 * it are still returned.
 */
export function splitFrames(buffer: Uint8Array): { frames: Uint8Array[]; rest: Uint8Array; refusal: string | null } {
  const frames: Uint8Array[] = [];
  let at = 0;
  const done = (reason: string | null = null) => ({ frames, rest: buffer.subarray(at), refusal: reason });
  while (at < buffer.length) {
    const left = buffer.subarray(at);
    const start = left[0]!;
    if ((start !== 0x78 && start !== 0x79) || (left.length > 1 && left[1] !== start))
      return done("no 7878 or 7979 start");
    const long = start === 0x79;
    if (left.length < (long ? 4 : 3)) return done();
    const length = long ? (left[2]! << 8) | left[3]! : left[2]!;
    if (length < SHORTEST) return done(`a length of ${length}`);
    if (long && length > MAX_LONG_FRAME) return done(`a length of ${length} (at most ${MAX_LONG_FRAME})`);
    const total = length + (long ? 6 : 5);
    if (left.length < total) return done();
    if (left[total - 2] !== 0x0d || left[total - 1] !== 0x0a) return done("no 0D0A after the frame's length");
    frames.push(left.subarray(0, total));
    at += total;
  }
  return done();
}
