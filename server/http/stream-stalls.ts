import type { ServerResponse } from "node:http";
import { metrics } from "@/server/platform/metrics/registry";

// A Server-Sent Events answer to a client that stopped reading (docs/operations.md#open-streams):
// its socket's buffers fill, Node's res.write answers false, and Next.js stops taking from the
// stream until "drain", which never comes. The stream then holds what it wrote since (bounded:
// server/platform/streams/stream-slots.ts) and its slot, and the connection stays open for good.
// So from the first write that did not drain, the answer has STREAM_STALL_SECONDS to drain; if it
// has not by then, the connection is destroyed, which ends the stream and frees its slot as a
// client leaving would. A client that reads, however slowly, drains within that time. Other
// answers are left alone: a large download to a slow client is not a stream that never ends.

/** To be called first thing for every request, with STREAM_STALL_SECONDS in milliseconds. */
export function endStalledStreams(res: ServerResponse, stallMs: number): void {
  let timer: NodeJS.Timeout | null = null;
  const write = res.write;
  res.write = function (this: ServerResponse, ...args: Parameters<ServerResponse["write"]>) {
    const drained = write.apply(this, args);
    if (!drained && !timer && isEventStream(this)) {
      timer = setTimeout(() => {
        metrics().streamsStalled.inc();
        res.destroy();
      }, stallMs);
      timer.unref();
    }
    return drained;
  } as ServerResponse["write"];
  const clear = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  res.on("drain", clear);
  res.once("close", clear);
}

// Next.js sets a route's headers with setHeader/appendHeader before its first write.
const isEventStream = (res: ServerResponse) =>
  /^\s*text\/event-stream\b/i.test(String(res.getHeader("content-type") ?? ""));
