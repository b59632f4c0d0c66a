// What a receiver's answer means for a delivery (docs/delivery.md#answers), and when the next try is due.
// Pure functions with the clock passed in, so tests can walk a whole day of failures at once.

/** Delays after the 1st, 2nd, … failed try; the last one repeats. The first try is immediate. */
export const RETRY_DELAYS_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
];
/** A delivery failing for this long without a success is deactivated. */
export const GIVE_UP_AFTER_MS = 24 * 3_600_000;
const JITTER = 0.2;

export type Answer =
  | { kind: "delivered" }
  | { kind: "permanent-redirect" } // 301, 308: the delivery's postUrl becomes Location
  | { kind: "temporary-redirect" } // 302, 307: resend once to Location
  | { kind: "unauthorized" } // 401: token refresh when the delivery has an oauth2 map
  | { kind: "retry" } // 408, 429, 5xx, anything unexpected
  | { kind: "deactivate" }; // other 4xx

export function classifyStatus(status: number): Answer {
  if (status >= 200 && status < 300) return { kind: "delivered" };
  if (status === 301 || status === 308) return { kind: "permanent-redirect" };
  if (status === 302 || status === 307) return { kind: "temporary-redirect" };
  if (status === 401) return { kind: "unauthorized" };
  if (status === 408 || status === 429) return { kind: "retry" };
  if (status >= 400 && status < 500) return { kind: "deactivate" };
  return { kind: "retry" };
}

/** Retry-After as seconds or an HTTP date; milliseconds from `now`, or null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: Date): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}

export type RetryDecision =
  { action: "retry"; at: Date; failingSince: Date } | { action: "deactivate"; reason: string; failingSince: Date };

/**
 * After a failed try: when to try again, or give up. `failures` counts the failed tries so far
 * including this one; `failingSince` is when the current run of failures began (null: it begins
 * now). `scale` shrinks every delay and the 24-hour window alike (DELIVERY_RETRY_SCALE).
 */
export function decideRetry(opts: {
  failures: number;
  failingSince: Date | null;
  now: Date;
  retryAfterMs?: number | null;
  lastError: string;
  scale?: number;
  random?: () => number;
}): RetryDecision {
  const scale = opts.scale ?? 1;
  const random = opts.random ?? Math.random;
  const failingSince = opts.failingSince ?? opts.now;
  const window = GIVE_UP_AFTER_MS * scale;
  const failingFor = opts.now.getTime() - failingSince.getTime();
  if (failingFor >= window) {
    return {
      action: "deactivate",
      failingSince,
      reason: `Failing for 24 hours since ${failingSince.toISOString()}; last error at ${opts.now.toISOString()}: ${opts.lastError}`,
    };
  }
  const base = RETRY_DELAYS_MS[Math.min(Math.max(opts.failures, 1), RETRY_DELAYS_MS.length) - 1]!;
  // Jitter spreads a receiver's backlog so it does not come back all at once.
  let delay = base * (1 - JITTER + 2 * JITTER * random()) * scale;
  // The receiver's Retry-After is a floor, within the window.
  if (opts.retryAfterMs != null) delay = Math.max(delay, Math.min(opts.retryAfterMs * scale, window));
  // The last try lands at the end of the window rather than after it: a delivery is never given
  // up on before it has failed for the whole 24 hours.
  const end = failingSince.getTime() + window;
  const at = Math.min(opts.now.getTime() + delay, end);
  return { action: "retry", at: new Date(at), failingSince };
}
