import http from "node:http";
import net from "node:net";

// Large and slow request bodies for the request-limit tests (docs/operations.md#request-limits):
// bodies made as they are sent, by a generator, never held in memory, and requests written byte
// by byte on a raw socket.

export type StreamedReply = {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** Body bytes the client had handed to its socket when the answer's head arrived. */
  sentWhenAnswered: number;
  /** Whether the client had sent the whole body by then. */
  finishedWhenAnswered: boolean;
};

/**
 * Sends `total` bytes of `fill` (with Content-Length, or chunked when `chunked`), written as the
 * socket takes them, and resolves with the answer, however far the upload got: the client stops
 * sending when the answer arrives (a server that stops reading closes the connection).
 */
export function sendStreamed(
  baseUrl: string,
  opts: {
    method?: string;
    path: string;
    headers?: Record<string, string>;
    total: number;
    chunked?: boolean;
    fill?: string;
  },
): Promise<StreamedReply> {
  const base = new URL(baseUrl);
  const chunk = Buffer.alloc(64 * 1024, opts.fill ?? "a");
  const headers: Record<string, string> = {
    ...opts.headers,
    ...(opts.chunked ? { "Transfer-Encoding": "chunked" } : { "Content-Length": String(opts.total) }),
  };
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = http.request(
      { host: base.hostname, port: base.port, method: opts.method ?? "POST", path: opts.path, headers, agent: false },
      (res) => {
        answered = true;
        const reply = {
          status: res.statusCode!,
          headers: res.headers,
          sentWhenAnswered: sent,
          finishedWhenAnswered: sent >= opts.total,
        };
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => {
          resolve({ ...reply, text });
          req.destroy();
        });
        res.on("error", () => resolve({ ...reply, text }));
      },
    );
    // A server that closed the connection mid-upload: an error for the writer, not for the test,
    // once the answer is in.
    req.on("error", (error) => (answered ? undefined : reject(error)));
    const pump = () => {
      while (!answered && sent < opts.total) {
        const piece = chunk.subarray(0, Math.min(chunk.length, opts.total - sent));
        sent += piece.length;
        if (!req.write(piece)) return void req.once("drain", pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

/**
 * Writes `head` to a raw socket, then `drip` one piece every `everyMs` for as long as the server
 * keeps the connection; resolves with what the server answered and when it closed.
 */
export function slowSender(
  baseUrl: string,
  head: string,
  drip: () => string,
  everyMs: number,
  giveUpMs: number,
): Promise<{ answer: string; closedAfterMs: number; closedByServer: boolean }> {
  const base = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let answer = "";
    const socket = net.connect(Number(base.port), base.hostname, () => socket.write(head));
    const timer = setInterval(() => socket.writable && socket.write(drip()), everyMs);
    const giveUp = setTimeout(() => finish(false), giveUpMs);
    const finish = (closedByServer: boolean) => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ answer, closedAfterMs: Date.now() - started, closedByServer });
    };
    socket.setEncoding("latin1");
    socket.on("data", (d: string) => (answer += d));
    socket.on("end", () => finish(true));
    socket.on("close", () => finish(true));
    socket.on("error", (error: NodeJS.ErrnoException) =>
      error.code === "ECONNRESET" || error.code === "EPIPE" ? finish(true) : reject(error),
    );
  });
}
