import { CATEGORY_BIT, ACCESS_CATEGORIES, type AccessMark } from "@/common/access/categories";

// The access log's in-process accumulator (docs/operations.md#the-access-log). Noting an answer
// costs a few map updates and no I/O: the request never waits for the log. flush.ts writes what
// was noted every ACCESS_LOG_FLUSH_SECONDS, and on a clean stop. Kept on globalThis: the server
// entry point (which flushes on SIGTERM), the worker (deliveries) and Next.js's separately bundled
// route modules (answers) are different module instances in one process and must share one state.

const HOUR_MS = 3_600_000;

export type HourCount = { appId: number; accountId: number; bit: number; hour: number; count: number; last: number };

/** An answer that named vehicles only: whose they are is looked up when it is written. */
export type UnresolvedAnswer = {
  appId: number;
  at: number;
  byAccount: Map<number, number>;
  byVehicle: Map<number, number>;
};

type State = {
  counts: Map<string, HourCount>;
  unresolved: UnresolvedAnswer[];
  timer: NodeJS.Timeout | null;
  /** The flush running now, whichever module instance started it: a stop waits for it. */
  flushing: Promise<void> | null;
};

const key = Symbol.for("wayline.access-log");
type WithState = typeof globalThis & { [key]?: State };

export function accessLogState(): State {
  const g = globalThis as WithState;
  return (g[key] ??= { counts: new Map(), unresolved: [], timer: null, flushing: null });
}

/** Takes everything noted so far, leaving the accumulator empty. */
export function takePending(): { counts: Map<string, HourCount>; unresolved: UnresolvedAnswer[] } {
  const state = accessLogState();
  const taken = { counts: state.counts, unresolved: state.unresolved };
  state.counts = new Map();
  state.unresolved = [];
  return taken;
}

export const countKey = (c: Pick<HourCount, "appId" | "accountId" | "bit" | "hour">) =>
  `${c.appId}|${c.accountId}|${c.bit}|${c.hour}`;

/** Adds one to (app, account, each category of mask, hour of `at`) in `counts`. */
export function addCounts(counts: Map<string, HourCount>, appId: number, accountId: number, mask: number, at: number) {
  const hour = at - (at % HOUR_MS);
  for (const category of ACCESS_CATEGORIES) {
    const bit = CATEGORY_BIT[category];
    if ((mask & bit) === 0) continue;
    const k = countKey({ appId, accountId, bit, hour });
    const found = counts.get(k);
    if (found) {
      found.count++;
      if (at > found.last) found.last = at;
    } else counts.set(k, { appId, accountId, bit, hour, count: 1, last: at });
  }
}

/** Puts what could not be written back, to go with the next flush. */
export function restorePending(counts: Map<string, HourCount>, unresolved: UnresolvedAnswer[] = []): void {
  const state = accessLogState();
  state.unresolved.push(...unresolved);
  const live = state.counts;
  for (const [k, c] of counts) {
    const found = live.get(k);
    if (found) {
      found.count += c.count;
      found.last = Math.max(found.last, c.last);
    } else live.set(k, c);
  }
}

/**
 * One answer (or delivery) that carried data to an app: `marks`, one per item. A user token's
 * answer is its account's whatever the items say; otherwise each account the items name counts
 * once, in the union of its items' categories (docs/driver-site.md#what-counts).
 */
export function noteAccess({
  appId,
  accountId,
  marks,
  at = Date.now(),
}: {
  appId: number;
  accountId: number | null;
  marks: Iterable<AccessMark | null>;
  at?: number;
}): void {
  const state = accessLogState();
  if (accountId !== null) {
    let mask = 0;
    for (const m of marks) if (m) mask |= m.mask;
    if (mask !== 0) addCounts(state.counts, appId, accountId, mask, at);
    return;
  }
  const byAccount = new Map<number, number>();
  const byVehicle = new Map<number, number>();
  for (const m of marks) {
    if (!m || m.mask === 0) continue;
    if (m.accountId !== null) byAccount.set(m.accountId, (byAccount.get(m.accountId) ?? 0) | m.mask);
    else if (m.vehicleId !== null) byVehicle.set(m.vehicleId, (byVehicle.get(m.vehicleId) ?? 0) | m.mask);
  }
  if (byVehicle.size > 0) {
    state.unresolved.push({ appId, at, byAccount, byVehicle });
    return;
  }
  for (const [account, mask] of byAccount) addCounts(state.counts, appId, account, mask, at);
}
