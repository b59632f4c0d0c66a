// A Server-Sent Events client for the tests of GET /eventFeed/stream: opens the stream over real
// HTTP, parses it as the EventSource specification says (fields id, event, data; comment lines;
// a blank line ends a message), and keeps what arrived. It does not reconnect by itself: the tests
// reconnect on purpose, with the Last-Event-ID they choose.

export type SseMessage = { id: string; event: string; data: any };

export type SseStream = {
  status: number;
  headers: Headers;
  /** The body when the answer was not a stream (an error's JSON). */
  text: string;
  messages: SseMessage[];
  comments: string[];
  /** The id of the last message with one (what EventSource would send as Last-Event-ID). */
  lastEventId(): string | undefined;
  /** Messages received so far (also when not kept). */
  count(): number;
  /** Resolves when the server ended the stream or the connection broke ("end" or "error"). */
  closed: Promise<"end" | "error">;
  isClosed(): boolean;
  /** Resolves once `count` messages have arrived (rejects if the stream closes first or after `ms`). */
  waitForMessages(count: number, ms?: number): Promise<SseMessage[]>;
  waitForComment(text: string, ms?: number): Promise<void>;
  close(): void;
};

export async function openSse(
  url: string,
  {
    token,
    lastEventId,
    accept = "text/event-stream",
    onMessage,
    keep = true,
  }: {
    token?: string;
    lastEventId?: string;
    accept?: string;
    /** Called as each message is parsed (benchmarks take its arrival time). */
    onMessage?: (m: SseMessage) => void;
    /** false: count messages without keeping them (a catch-up of 720,000 events). */
    keep?: boolean;
  } = {},
): Promise<SseStream> {
  const abort = new AbortController();
  const headers: Record<string, string> = { Accept: accept };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (lastEventId) headers["Last-Event-ID"] = lastEventId;
  const res = await fetch(url, { headers, signal: abort.signal });
  const messages: SseMessage[] = [];
  const comments: string[] = [];
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((l) => l());
  let closedAs: "end" | "error" | null = null;
  let count = 0;
  let last: string | undefined;

  if (!res.headers.get("content-type")?.startsWith("text/event-stream")) {
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      text,
      messages,
      comments,
      lastEventId: () => undefined,
      count: () => 0,
      closed: Promise.resolve("end"),
      isClosed: () => true,
      waitForMessages: () => Promise.reject(new Error(`not a stream: ${res.status} ${text}`)),
      waitForComment: () => Promise.reject(new Error(`not a stream: ${res.status} ${text}`)),
      close: () => {},
    };
  }

  const closed = (async (): Promise<"end" | "error"> => {
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    let fields: { id?: string; event?: string; data: string[] } = { data: [] };
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return (closedAs = "end");
        buffer += value;
        let nl: number;
        while ((nl = buffer.indexOf("\n")) >= 0) {
          const line = buffer.slice(0, nl).replace(/\r$/, "");
          buffer = buffer.slice(nl + 1);
          if (line === "") {
            if (fields.data.length > 0) {
              const m = {
                id: fields.id ?? "",
                event: fields.event ?? "message",
                data: JSON.parse(fields.data.join("\n")),
              };
              onMessage?.(m);
              count++;
              last = m.id || last;
              if (keep) messages.push(m);
            }
            fields = { data: [] };
          } else if (line.startsWith(":")) comments.push(line.slice(1).trim());
          else {
            const at = line.indexOf(":");
            const name = at < 0 ? line : line.slice(0, at);
            const value = at < 0 ? "" : line.slice(at + 1).replace(/^ /, "");
            if (name === "data") fields.data.push(value);
            else if (name === "id" || name === "event") fields[name] = value;
          }
        }
        changed();
      }
    } catch {
      return (closedAs = abort.signal.aborted ? "end" : "error");
    } finally {
      closedAs ??= "end";
      changed();
    }
  })();

  const waitUntil = (ready: () => boolean, what: string, ms: number) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (ready()) finish(resolve);
        else if (closedAs) finish(() => reject(new Error(`stream closed (${closedAs}) before ${what}`)));
      };
      const timer = setTimeout(() => finish(() => reject(new Error(`no ${what} within ${ms} ms`))), ms);
      const finish = (then: () => void) => {
        clearTimeout(timer);
        listeners.delete(check);
        then();
      };
      listeners.add(check);
      check();
    });

  return {
    status: res.status,
    headers: res.headers,
    text: "",
    messages,
    comments,
    lastEventId: () => last,
    count: () => count,
    closed,
    isClosed: () => closedAs !== null,
    waitForMessages: async (wanted, ms = 30_000) => {
      await waitUntil(() => count >= wanted, `${wanted} messages (have ${count})`, ms);
      return messages.slice(0, wanted);
    },
    waitForComment: (text, ms = 30_000) => waitUntil(() => comments.includes(text), `comment "${text}"`, ms),
    close: () => abort.abort(),
  };
}
