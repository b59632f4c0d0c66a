// A bounds-checked big-endian reader over received bytes: reading past the end throws
// `Truncated`, which a decoder turns into its refusal (a frame that says more than it holds).

export class Truncated extends Error {
  constructor() {
    super("truncated");
  }
}

export class ByteReader {
  private readonly view: DataView;
  offset = 0;

  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get remaining(): number {
    return this.bytes.length - this.offset;
  }

  private take(n: number): number {
    if (n > this.remaining) throw new Truncated();
    const at = this.offset;
    this.offset += n;
    return at;
  }

  u8(): number {
    return this.view.getUint8(this.take(1));
  }

  u16(): number {
    return this.view.getUint16(this.take(2));
  }

  i16(): number {
    return this.view.getInt16(this.take(2));
  }

  u24(): number {
    const at = this.take(3);
    return (this.view.getUint8(at) << 16) | this.view.getUint16(at + 1);
  }

  u32(): number {
    return this.view.getUint32(this.take(4));
  }

  i32(): number {
    return this.view.getInt32(this.take(4));
  }

  u64(): bigint {
    return this.view.getBigUint64(this.take(8));
  }

  slice(n: number): Uint8Array {
    const at = this.take(n);
    return this.bytes.subarray(at, at + n);
  }

  skip(n: number): void {
    this.take(n);
  }
}

export const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");

/** An unsigned 64-bit value as a number where it is exact, else as its decimal text. */
export const exactNumber = (value: bigint): number | string =>
  value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();

/**
 * The encoders' big-endian writer. A value outside its field (negative, fractional, too wide) throws
 * a RangeError instead of wrapping as DataView would: an encoder never sends bytes that say
 * something else than the record it was given.
 */
export class ByteWriter {
  private readonly parts: number[] = [];

  private put(value: number, bytes: number, signed = false): this {
    const bits = bytes * 8;
    const min = signed ? -(2 ** (bits - 1)) : 0;
    const max = signed ? 2 ** (bits - 1) - 1 : 2 ** bits - 1;
    if (!Number.isInteger(value) || value < min || value > max)
      throw new RangeError(`${value} does not fit ${signed ? "a signed" : "an unsigned"} ${bits}-bit field`);
    let v = value < 0 ? value + 2 ** bits : value;
    const out: number[] = [];
    for (let i = 0; i < bytes; i++) {
      out.unshift(v % 256);
      v = Math.floor(v / 256);
    }
    this.parts.push(...out);
    return this;
  }

  u8 = (value: number) => this.put(value, 1);
  u16 = (value: number) => this.put(value, 2);
  i16 = (value: number) => this.put(value, 2, true);
  u24 = (value: number) => this.put(value, 3);
  u32 = (value: number) => this.put(value, 4);
  i32 = (value: number) => this.put(value, 4, true);

  u64(value: bigint): this {
    if (value < 0n || value >= 1n << 64n) throw new RangeError(`${value} does not fit an unsigned 64-bit field`);
    return this.u32(Number(value >> 32n)).u32(Number(value & 0xffffffffn));
  }

  bytes(bytes: Uint8Array): this {
    for (const byte of bytes) this.parts.push(byte);
    return this;
  }

  get length(): number {
    return this.parts.length;
  }

  done(): Uint8Array {
    return Uint8Array.from(this.parts);
  }
}
