// The messages of a Server-Sent Events body, parsed as the HTML specification's EventSource does
// (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation):
// lines end in LF, CRLF or CR; a blank line ends a message; `:` starts a comment (the service's
// heartbeats); `data:` lines join with LF; a message without data is none. A few dozen lines of
// rules did not justify a dependency the package's users would install too.

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
  let buffer = "";
  let fields: { id?: string; event?: string; data: string[] } = { data: [] };
  try {
    for (;;) {
      const { value, done } = await readWithin(reader, idleMs);
      if (done) return;
      let text = buffer + decoder.decode(value, { stream: true });
      // A CR at the end may be the first half of a CRLF: held back until the next chunk says.
      const heldCr = text.endsWith("\r");
      if (heldCr) text = text.slice(0, -1);
      const lines = text.split(/\r\n|\r|\n/);
      // The last piece has no line end yet.
      buffer = lines.pop()! + (heldCr ? "\r" : "");
      for (const line of lines) {
        if (line === "") {
          if (fields.data.length > 0)
            yield { id: fields.id, event: fields.event || "message", data: fields.data.join("\n") };
          fields = { data: [] };
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const name = colon < 0 ? line : line.slice(0, colon);
        const field = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (name === "data") fields.data.push(field);
        else if (name === "event") fields.event = field;
        else if (name === "id" && !field.includes("\0")) fields.id = field;
      }
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
