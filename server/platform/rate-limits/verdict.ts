import type { Policy } from "./policies";

// What one check of one bucket found, and how it reads on the wire: the IETF RateLimit and
// RateLimit-Policy fields (draft-ietf-httpapi-ratelimit-headers-10: structured-field lists,
// `"name";q=…;w=…` and `"name";r=…;t=…`) and Retry-After. Pure: the clock is the database's,
// already folded into `aheadMs`.

export type Verdict = {
  policy: Policy;
  key: string;
  allowed: boolean;
  /** How far the bucket's theoretical arrival time is ahead of now: the time until it is full again. */
  aheadMs: number;
};

// Timestamps are kept to the microsecond, so a bucket can be a hair short of a whole request.
const SLACK = 1e-3;

/** Requests left in the bucket right now (0 when refused). */
export function remaining(v: Verdict): number {
  if (!v.allowed) return 0;
  const left = Math.floor(v.policy.quota - Math.max(v.aheadMs, 0) / v.policy.emissionMs + SLACK);
  return Math.min(Math.max(left, 0), v.policy.quota);
}

/** Seconds until the bucket is full again. */
export function resetSeconds(v: Verdict): number {
  return Math.ceil(Math.max(v.aheadMs, 0) / 1000 - SLACK);
}

/** Seconds until a refused request would fit (at least 1). */
export function retryAfterSeconds(v: Verdict): number {
  const waitMs = v.aheadMs + v.policy.emissionMs - v.policy.quota * v.policy.emissionMs;
  return Math.max(1, Math.ceil(waitMs / 1000 - SLACK));
}

export function rateLimitHeaders(verdicts: Verdict[]): Record<string, string> {
  if (verdicts.length === 0) return {};
  return {
    "RateLimit-Policy": verdicts
      .map((v) => `"${v.policy.name}";q=${v.policy.quota};w=${v.policy.windowSeconds}`)
      .join(", "),
    RateLimit: verdicts.map((v) => `"${v.policy.name}";r=${remaining(v)};t=${resetSeconds(v)}`).join(", "),
  };
}

/** The refusal of a request some bucket turned down: the longest wait of them, or null when all let it through. */
export function refusal(verdicts: Verdict[]): { retryAfterSeconds: number; policies: string[] } | null {
  const refused = verdicts.filter((v) => !v.allowed);
  if (refused.length === 0) return null;
  return {
    retryAfterSeconds: Math.max(...refused.map(retryAfterSeconds)),
    policies: refused.map((v) => v.policy.name),
  };
}
