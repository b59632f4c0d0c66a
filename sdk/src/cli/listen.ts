import { signWebhook } from "../webhooks.js";
import type { WaylineClient } from "../client.js";
import { isCursorExpired, type EventSource, type FeedEvent } from "./event-source.js";
import type { stateStore } from "./state.js";
import { toWire } from "./wire-time.js";

// wayline listen --forward-to <url> (docs/sdk.md#wayline-listen): each sandbox event of the app, as it
// happens, POSTed to a local URL with the body and webhook-* headers its delivery would have had, signed
// with the app's signing secret. One line per event. A local failure (5xx, 408, 429, no answer) is
// retried with backoff, the event feed's order kept; another 4xx is reported and passed. The cursor is
// saved after each event, so a restart resumes after the last one forwarded: nothing lost, nothing twice.

export type Listener = {
  api: WaylineClient;
  source: EventSource;
  state: ReturnType<typeof stateStore>;
  forwardTo: string;
  signingSecret: string;
  fromStart: boolean;
  print: (line: string) => void;
  signal: AbortSignal;
};

const TIMEOUT_MS = 10_000;
const MAX_BACKOFF_MS = 30_000;

const clock = () => new Date().toISOString().slice(11, 19);

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });

/** The body as its delivery carries it: the feed's event without its feed position. */
function deliveredBody(event: FeedEvent): string {
  const { cursor: _cursor, ...body } = event;
  return JSON.stringify({ ...body, httpStatusCode: 0 });
}

type Outcome = { status: number; ms: number } | { failure: string; ms: number };

async function post(url: string, body: string, headers: Record<string, string>): Promise<Outcome> {
  const started = performance.now();
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await response.body?.cancel();
    return { status: response.status, ms: Math.round(performance.now() - started) };
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    const reason =
      (e as Error).name === "TimeoutError"
        ? `no answer in ${TIMEOUT_MS / 1000} s`
        : (cause?.code ?? cause?.message ?? (e as Error).message);
    return { failure: reason, ms: Math.round(performance.now() - started) };
  }
}

const retried = (o: Outcome) => "failure" in o || o.status >= 500 || o.status === 408 || o.status === 429;

/** Forwards one event until the local URL takes it (or answers a 4xx that retrying cannot change). */
async function forward(l: Listener, event: FeedEvent): Promise<boolean> {
  const body = deliveredBody(event);
  const what = `${event._type} ${event.eventId}${event.vehicleId ? ` vehicle ${event.vehicleId}` : ""}`;
  for (let attempt = 0; !l.signal.aborted; attempt++) {
    const outcome = await post(l.forwardTo, body, signWebhook(l.signingSecret, event.eventId, body));
    const answer = "failure" in outcome ? `${outcome.failure}` : `${outcome.status}`;
    if (!retried(outcome)) {
      const note = "status" in outcome && outcome.status >= 300 ? " (not retried)" : "";
      l.print(`${clock()}  ${what}  -> ${answer} in ${outcome.ms} ms${note}`);
      return true;
    }
    const wait = Math.min(1000 * 2 ** attempt, MAX_BACKOFF_MS);
    l.print(`${clock()}  ${what}  -> ${answer} in ${outcome.ms} ms; retrying in ${wait / 1000} s`);
    await sleep(wait, l.signal);
  }
  return false;
}

export async function listen(l: Listener): Promise<void> {
  const saved = l.state.cursor();
  // Without a saved place, a first run forwards what happens from now on (or everything kept, --from-start).
  let start: { after?: string; since?: string } = saved
    ? { after: saved }
    : l.fromStart
      ? {}
      : { since: toWire(new Date()) };
  l.print(
    `Forwarding the app's sandbox events to ${l.forwardTo} ` +
      `(${saved ? "resuming where the last run stopped" : l.fromStart ? "from the oldest event kept" : "from now"}; ` +
      `reading ${l.source.how}). Ctrl-C stops; a restart resumes.`,
  );
  while (!l.signal.aborted) {
    try {
      for await (const event of l.source.events(start, l.signal)) {
        if (!(await forward(l, event))) return;
        l.state.save(event.cursor);
        start = { after: event.cursor };
        if (l.signal.aborted) return;
      }
      return;
    } catch (e) {
      if (l.signal.aborted) return;
      if (!isCursorExpired(e)) throw e;
      l.print(`${clock()}  the saved place is older than the feed keeps; going on from now (older events are gone)`);
      start = { since: toWire(new Date()) };
    }
  }
}
