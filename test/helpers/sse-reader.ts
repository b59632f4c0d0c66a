// A Server-Sent Events client for tests: opens a stream with fetch (the cookies and address of a
// test browser), parses events and comments as they arrive, and lets a test wait for the next
// event that matches, or for the stream's end. What EventSource does, minus the reconnecting.

export type SseEvent = { event: string; id: string | null; data: any };

export type SseStream = {
  status: number;
  headers: Headers;
  /** The body of a refused opening (a 401, a 404), else "". */
  refusal: string;
  events: SseEvent[];
  comments: string[];
  /** Resolves with the first event (already received or to come) that `match` accepts. */
  next(what: string, match: (e: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  /** Resolves when the server ends the stream. */
  ended(timeoutMs?: number): Promise<void>;
  close(): void;
};

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const abort = new AbortController();
  const res = await fetch(url, {
    headers: { Accept: "text/event-stream", ...headers },
    signal: abort.signal,
    redirect: "manual",
  });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  let done = false;
  const notify = () => {
    for (const w of waiters) w();
  };
  const isStream = res.ok && (res.headers.get("content-type") ?? "").startsWith("text/event-stream");
  const refusal = isStream ? "" : await res.text();
  if (isStream) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = "";
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let end: number;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            let event = "message";
            let id: string | null = null;
            const data: string[] = [];
            for (const line of block.split("\n")) {
              if (line.startsWith(":")) comments.push(line.slice(1).trim());
              else if (line.startsWith("event:")) event = line.slice(6).trim();
              else if (line.startsWith("id:")) id = line.slice(3).trim();
              else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
            }
            if (data.length) events.push({ event, id, data: JSON.parse(data.join("\n")) });
          }
          notify();
        }
      } catch {
        // aborted by close()
      }
      done = true;
      notify();
    })();
  } else {
    done = true;
  }
  const waitFor = <T>(what: string, check: () => T | undefined, timeoutMs: number) =>
    new Promise<T>((resolve, reject) => {
      const tryNow = () => {
        const found = check();
        if (found !== undefined) {
          clearTimeout(timer);
          waiters.delete(tryNow);
          resolve(found);
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(tryNow);
        reject(new Error(`no ${what} within ${timeoutMs} ms; events so far: ${JSON.stringify(events).slice(-2000)}`));
      }, timeoutMs);
      waiters.add(tryNow);
      tryNow();
    });
  return {
    status: res.status,
    headers: res.headers,
    refusal,
    events,
    comments,
    next: (what, match, timeoutMs = 15_000) =>
      waitFor(what, () => events.find(match) ?? (done ? (null as never) : undefined), timeoutMs).then((e) => {
        if (!e) throw new Error(`the stream ended before ${what}`);
        return e;
      }),
    ended: (timeoutMs = 15_000) =>
      waitFor("end of the stream", () => (done ? true : undefined), timeoutMs).then(() => {}),
    close: () => abort.abort(),
  };
}

/** The Cookie and X-Forwarded-For headers of a test browser (helpers/browser.ts). */
export const browserHeaders = (b: { cookies: Map<string, string>; address: string }) => ({
  "X-Forwarded-For": b.address,
  Cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
});
