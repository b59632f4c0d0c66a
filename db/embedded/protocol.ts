// Builders for PostgreSQL frontend protocol messages: the wire server's own abort sequence and
// the tests' raw client use the same ones.

export function message(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(5);
  head.write(type, 0, "latin1");
  head.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([head, body]);
}

export function cstring(s: string) {
  return Buffer.from(`${s}\0`, "utf8");
}

export function int16(n: number) {
  const b = Buffer.alloc(2);
  b.writeInt16BE(n);
  return b;
}

export function int32(n: number) {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
}
