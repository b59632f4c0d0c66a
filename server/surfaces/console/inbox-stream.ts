import { listInboxRequests } from "@/server/inbox/queries";
import { inboxRequestView } from "./inbox";

// The inbox page's live feed as Server-Sent Events: every second the partner's inbox is read for
// requests newer than the last one sent (ids only grow), each sent as an `event: request` with its id,
// so a reconnecting EventSource resumes from Last-Event-ID. A comment every 15 s keeps proxies from
// closing an idle stream; after 5 minutes the stream ends and the browser reconnects, so no
// connection (and no poll loop) outlives a closed tab for long. Ownership is checked by the route.

const POLL_MS = 1000;
const KEEPALIVE_MS = 15_000;
const LIFETIME_MS = 5 * 60_000;

export function inboxEventStream({
  appId,
  afterId,
  signal,
}: {
  appId: number;
  afterId: number;
  signal: AbortSignal;
}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let last = afterId;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  const startedAt = Date.now();
  let lastWrite = Date.now();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const write = (text: string) => {
        lastWrite = Date.now();
        controller.enqueue(encoder.encode(text));
      };
      const close = () => {
        if (closed) return;
        closed = true;
        clearTimeout(timer);
        try {
          controller.close();
        } catch {
          // already closed by the client going away
        }
      };
      signal.addEventListener("abort", close);
      write(`retry: 1000\n: inbox of app ${appId}\n\n`);
      const tick = async () => {
        if (closed) return;
        try {
          const rows = await listInboxRequests({ appId, afterId: last });
          for (const row of rows.reverse()) {
            write(`id: ${row.id}\nevent: request\ndata: ${JSON.stringify(inboxRequestView(row))}\n\n`);
            last = row.id;
          }
          if (Date.now() - lastWrite >= KEEPALIVE_MS) write(": keep-alive\n\n");
        } catch {
          // The database went away for a moment: end the stream, the browser reconnects.
          return close();
        }
        if (Date.now() - startedAt >= LIFETIME_MS) return close();
        timer = setTimeout(() => void tick(), POLL_MS);
      };
      void tick();
    },
    cancel() {
      closed = true;
      clearTimeout(timer);
    },
  });
}
