import { listenForNotifies } from "@/server/platform/fleet/notify-listener";

// Who in this process waits for which app's events (docs/event-feed.md#the-stream). Every
// statement that inserts notifications sends NOTIFY wayline_events "<tx> <app>:<account>,…" when
// it commits (migration 0026); one LISTEN per process (server/platform/fleet/notify-listener.ts)
// hands it here, and here each stream of those apps is marked woken (a user token's stream only
// for its own account's events: an app with a thousand drivers streaming wakes one per event),
// with the highest transaction id it was told of. Wake-ups batch: a stream that is reading while NOTIFYs arrive is marked once and
// reads once more when it is done, however many came.
//
// The transaction id says when the stream can stop retrying: the feed hands out only events of
// transactions below its horizon (the oldest transaction still running), so a commit may be heard
// before the feed may show it, while an older transaction is still open. Until a read's horizon
// has passed the largest id heard, the stream reads again shortly (feed-stream.ts).

const FEED_CHANNEL = "wayline_events";

export type FeedWaiter = {
  /** The largest transaction id heard of for this app and not yet seen past; 0n when none. */
  readonly pendingTx: bigint;
  /** Resolves when woken (at once if woken since the last call), after `ms`, or on abort. */
  wait(ms: number, signal: AbortSignal): Promise<void>;
  /** The read's horizon: every transaction below it is in the feed now. */
  passed(horizon: bigint): void;
  close(): void;
};

type Waiter = {
  /** null: every account of the app (a client-credentials token). */
  accountId: number | null;
  woken: boolean;
  pendingTx: bigint;
  wake: (() => void) | null;
};

const key = Symbol.for("wayline.feed-wakeups");
type Registry = { byApp: Map<number, Set<Waiter>>; listening: Promise<unknown> | null };
type WithRegistry = typeof globalThis & { [key]?: Registry };

function registry(): Registry {
  const g = globalThis as WithRegistry;
  return (g[key] ??= { byApp: new Map(), listening: null });
}

function wake(w: Waiter, tx: bigint) {
  w.woken = true;
  if (tx > w.pendingTx) w.pendingTx = tx;
  w.wake?.();
}

/** "<tx> <app>:<account>,<app>:<account>…" (no account: "<app>:"), or "<tx> *" for everyone. */
function onNotify(payload: string) {
  const [txText, named] = payload.split(" ");
  let tx = 0n;
  try {
    tx = BigInt(txText ?? "0");
  } catch {
    // Not ours to judge: wake as for an unknown transaction.
  }
  const { byApp } = registry();
  if (named === "*" || named === undefined) {
    for (const waiters of byApp.values()) for (const w of waiters) wake(w, tx);
    return;
  }
  for (const entry of named.split(",")) {
    const [app, account] = entry.split(":");
    const accountId = account ? Number(account) : null;
    for (const w of byApp.get(Number(app)) ?? []) if (w.accountId === null || w.accountId === accountId) wake(w, tx);
  }
}

function onListen() {
  for (const waiters of registry().byApp.values()) for (const w of waiters) wake(w, 0n);
}

/**
 * Registers a stream of `appId` (of one account of it, for a user token); resolves once the process
 * LISTENs, so no commit after it is missed.
 */
export async function feedWaiter(appId: number, accountId: number | null): Promise<FeedWaiter> {
  const reg = registry();
  const w: Waiter = { accountId, woken: false, pendingTx: 0n, wake: null };
  const waiters = reg.byApp.get(appId) ?? new Set<Waiter>();
  reg.byApp.set(appId, waiters.add(w));
  const close = () => {
    waiters.delete(w);
    if (waiters.size === 0 && reg.byApp.get(appId) === waiters) reg.byApp.delete(appId);
  };
  try {
    reg.listening ??= listenForNotifies(FEED_CHANNEL, { onNotify, onListen }).catch((error: unknown) => {
      reg.listening = null;
      throw error;
    });
    await reg.listening;
  } catch (error) {
    close();
    throw error;
  }
  return {
    get pendingTx() {
      return w.pendingTx;
    },
    wait(ms, signal) {
      if (w.woken || signal.aborted) {
        w.woken = false;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener("abort", done);
          w.wake = null;
          w.woken = false;
          resolve();
        };
        const timer = setTimeout(done, ms);
        signal.addEventListener("abort", done);
        w.wake = done;
      });
    },
    passed(horizon) {
      if (horizon > w.pendingTx) w.pendingTx = 0n;
    },
    close,
  };
}
