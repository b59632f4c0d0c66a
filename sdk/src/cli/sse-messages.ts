import { createParser } from "eventsource-parser";

// The messages of a Server-Sent Events body, parsed by eventsource-parser (the HTML specification's
// EventSource rules: lines end in LF, CRLF or CR, `:` starts a comment such as the service's
// heartbeats, `data:` lines join with LF, a message without data is none). What is ours: reading
// only when asked, and the bound on silence.

export type SseMessage = { id: string | undefined; event: string; data: string };

/**
 * The body's messages, in order, until it ends. Reads only when the caller asks for the next
 * message (back-pressure reaches the service), and gives up when no byte (a message or a heartbeat)
 * came for `idleMs` while it waited: the connection is then taken for dead, however quiet the
 * socket is about it, and the caller reconnects.
 */
export async function* sseMessages(
  body: ReadableStream<Uint8Array>,
  { idleMs }: { idleMs: number },
): AsyncGenerator<SseMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parsed: SseMessage[] = [];
  const parser = createParser({
    onEvent: ({ id, event, data }) => parsed.push({ id, event: event || "message", data }),
  });
  try {
    for (;;) {
      const { value, done } = await readWithin(reader, idleMs);
      if (done) return;
      parser.feed(decoder.decode(value, { stream: true }));
      while (parsed.length > 0) yield parsed.shift()!;
    }
  } finally {
    // Stopped early (the caller left, or the wait ran out): release the connection.
    await reader.cancel().catch(() => {});
  }
}

export class StreamIdle extends Error {
  constructor(readonly idleMs: number) {
    super(`nothing heard for ${idleMs / 1000} s`);
    this.name = "StreamIdle";
  }
}

async function readWithin(reader: ReadableStreamDefaultReader<Uint8Array>, ms: number) {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      reader.read(),
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new StreamIdle(ms)), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
