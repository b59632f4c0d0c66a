import { db } from "@/db/client";
import type { Environment } from "@/db/schema";
import { deleteStaleThrottles, deleteThrottle, lockThrottles, refundFailure, saveThrottle } from "./throttle-queries";

// Failed sign-ins slow further attempts down, per account and per client address, with the state
// in the database so every process serving sign-ins agrees. An attempt is counted as a failure
// *before* the password is checked and forgiven when it succeeds: a burst of parallel guesses
// cannot slip through between "check" and "record". While a key is blocked, attempts are refused
// without checking the password at all.

export type ThrottlePolicy = {
  /** Failures allowed before the first wait. */
  free: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A failure this old no longer counts. */
  forgetAfterMs: number;
};

// An account tolerates a few typos, then waits 30 s, 1 min, 2 min, … up to 15 min per further
// failure; waits stay short because anyone can make them happen to someone else's account. An
// address (possibly a whole office behind NAT) gets more room before the same slowdown.
export const ACCOUNT_POLICY: ThrottlePolicy = {
  free: 5,
  baseDelayMs: 30_000,
  maxDelayMs: 15 * 60_000,
  forgetAfterMs: 60 * 60_000,
};
export const ADDRESS_POLICY: ThrottlePolicy = {
  free: 20,
  baseDelayMs: 30_000,
  maxDelayMs: 15 * 60_000,
  forgetAfterMs: 60 * 60_000,
};

export type ThrottleKey = { key: string; policy: ThrottlePolicy };

export function signInKeys({
  environment,
  username,
  address,
}: {
  environment: Environment;
  username: string;
  address: string;
}): ThrottleKey[] {
  return [
    { key: `account:${environment}:${username.trim().toLowerCase()}`, policy: ACCOUNT_POLICY },
    { key: `address:${address}`, policy: ADDRESS_POLICY },
  ];
}

/** How long a key waits after its `failures`-th failure; null while failures are still free. */
export function blockAfter(failures: number, policy: ThrottlePolicy): number | null {
  if (failures < policy.free) return null;
  return Math.min(policy.baseDelayMs * 2 ** Math.min(failures - policy.free, 30), policy.maxDelayMs);
}

export type Attempt =
  | { allowed: false; retryAfterSeconds: number }
  | { allowed: true; /** the wait that applies if this attempt fails */ waitIfFailedSeconds: number };

export async function beginAttempt(keys: ThrottleKey[]): Promise<Attempt> {
  const policies = new Map(keys.map((k) => [k.key, k.policy]));
  const attempt = await db().transaction(async (tx): Promise<Attempt> => {
    const now = Date.now();
    const rows = await lockThrottles(tx, { keys: [...policies.keys()] });
    const blockedFor = Math.max(0, ...rows.map((r) => (r.blockedUntil ? r.blockedUntil.getTime() - now : 0)));
    if (blockedFor > 0) return { allowed: false, retryAfterSeconds: Math.ceil(blockedFor / 1000) };

    let waitIfFailed = 0;
    for (const row of rows) {
      const policy = policies.get(row.key)!;
      const failures = (now - row.lastFailureAt.getTime() > policy.forgetAfterMs ? 0 : row.failures) + 1;
      const wait = blockAfter(failures, policy);
      waitIfFailed = Math.max(waitIfFailed, wait ?? 0);
      await saveThrottle(tx, {
        key: row.key,
        failures,
        lastFailureAt: new Date(now),
        blockedUntil: wait === null ? null : new Date(now + wait),
      });
    }
    return { allowed: true, waitIfFailedSeconds: Math.ceil(waitIfFailed / 1000) };
  });
  // Housekeeping without a scheduler: now and then, drop rows that remember nothing.
  if (Math.random() < 0.01) await deleteStaleThrottles(db(), { before: new Date(Date.now() - 24 * 3600_000) });
  return attempt;
}

/** A successful sign-in clears its account's record and gives its address back the one failure counted in advance. */
export async function forgiveAttempt(keys: ThrottleKey[]): Promise<void> {
  await db().transaction(async (tx) => {
    for (const { key, policy } of keys) {
      if (key.startsWith("account:")) await deleteThrottle(tx, { key });
      else await refundFailure(tx, { key, free: policy.free });
    }
  });
}
