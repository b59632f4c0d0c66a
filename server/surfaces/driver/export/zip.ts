import { Zip, ZipDeflate } from "fflate";

// A ZIP written as it is read (fflate's streaming Zip: sizes go in data descriptors after each
// entry, so nothing is known or held in advance). Each entry's content is an async iterable of
// text pieces; the stream asks for the next piece only when its reader wants more bytes, so a
// slow download slows the reads of the database instead of filling memory.

export type ZipEntry = { name: string; content: () => AsyncIterable<string> };

const LEVEL = 6;

export function zipStream(entries: ZipEntry[]): ReadableStream<Uint8Array> {
  const out: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else if (chunk.length > 0) out.push(chunk);
  });
  const encoder = new TextEncoder();
  const take = (): Uint8Array | null => {
    if (failure) throw failure;
    if (out.length === 0) return null;
    if (out.length === 1) return out.pop()!;
    const joined = new Uint8Array(out.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of out.splice(0)) {
      joined.set(c, at);
      at += c.length;
    }
    return joined;
  };
  async function* chunks(): AsyncGenerator<Uint8Array> {
    for (const entry of entries) {
      const file = new ZipDeflate(entry.name, { level: LEVEL });
      zip.add(file);
      for await (const piece of entry.content()) {
        file.push(encoder.encode(piece));
        const ready = take();
        if (ready) yield ready;
      }
      file.push(new Uint8Array(0), true);
      const ready = take();
      if (ready) yield ready;
    }
    zip.end();
    const rest = take();
    if (rest) yield rest;
  }
  const source = chunks();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await source.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await source.return(undefined);
      },
    },
    { highWaterMark: 1 },
  );
}
