import { describe, expect, test } from "vitest";
import { sseMessages, StreamIdle } from "@/sdk/src/cli/sse-messages";

// The SSE parser `wayline listen` reads the event stream with (sdk/src/cli/sse-messages.ts), fed the
// bytes in the pieces a socket may cut them into.

const encoder = new TextEncoder();

function body(chunks: string[], { end = true } = {}): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(encoder.encode(chunks[i++]!));
      else if (end) controller.close();
      // Not ended: the stream stays open and silent.
    },
  });
}

async function all(stream: ReadableStream<Uint8Array>, idleMs = 5_000) {
  const messages = [];
  for await (const m of sseMessages(stream, { idleMs })) messages.push(m);
  return messages;
}

describe("sseMessages", () => {
  test("messages with id, event and data; comments (the heartbeats) skipped; a message without data is none", async () => {
    const text =
      ': stream open\n\nid: c1\nevent: WAYPOINT\ndata: {"a":1}\n\n: heartbeat\n\nid: c2\n\nevent: LOWBATTERY\ndata: {}\n\n';
    expect(await all(body([text]))).toEqual([
      { id: "c1", event: "WAYPOINT", data: '{"a":1}' },
      { id: undefined, event: "LOWBATTERY", data: "{}" },
    ]);
  });

  test("the same messages whatever the cuts between chunks, a multi-byte character and a CRLF split included", async () => {
    const text = 'id: c1\r\nevent: WAYPOINT\r\ndata: {"label":"Café"}\r\n\r\ndata: line one\r\ndata: line two\r\n\r\n';
    const bytes = encoder.encode(text);
    const expected = [
      { id: "c1", event: "WAYPOINT", data: '{"label":"Café"}' },
      { id: undefined, event: "message", data: "line one\nline two" },
    ];
    for (let cut = 1; cut < bytes.length; cut++) {
      const pieces = [bytes.slice(0, cut), bytes.slice(cut)];
      let i = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (i < pieces.length) controller.enqueue(pieces[i++]!);
          else controller.close();
        },
      });
      expect(await all(stream), `cut at byte ${cut}`).toEqual(expected);
    }
  });

  test("lines ended by a lone CR count as lines; a message the stream ends before its blank line is dropped", async () => {
    expect(await all(body(["data: x\r\rdata: half"]))).toEqual([{ id: undefined, event: "message", data: "x" }]);
  });

  test("a body silent longer than idleMs ends with StreamIdle", async () => {
    const silent = body(["data: first\n\n"], { end: false });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const m of sseMessages(silent, { idleMs: 50 })) seen.push(m.data);
      })(),
    ).rejects.toBeInstanceOf(StreamIdle);
    expect(seen).toEqual(["first"]);
  });
});
