import { env, type RateSpec } from "@/server/platform/env";

// The rate-limit policies (docs/operations.md#rate-limits), built from the configuration. A
// policy is a bucket of `quota` requests refilled evenly over `windowSeconds` (GCRA): the
// header form of the same numbers is RateLimit-Policy's q and w.

export type Policy = {
  /** The name clients see in RateLimit and RateLimit-Policy. */
  name: string;
  /** What the database row is keyed under, with the limited thing's key. */
  scope: string;
  quota: number;
  windowSeconds: number;
  /** Milliseconds one request takes out of the window: the bucket regains one request per this. */
  emissionMs: number;
};

const policy = (name: string, scope: string, { quota, windowSeconds }: RateSpec): Policy => ({
  name,
  scope,
  quota,
  windowSeconds,
  emissionMs: (windowSeconds * 1000) / quota,
});

/** Null when RATE_LIMITS=off. */
export function rateLimitPolicies() {
  const config = env();
  if (!config.rateLimits) return null;
  return {
    apiToken: policy("per-token", "api-token", config.RATE_LIMIT_API_TOKEN),
    apiClient: policy("per-client", "api-client", config.RATE_LIMIT_API_CLIENT),
    apiAddress: policy("per-address", "api-address", config.RATE_LIMIT_API_ADDRESS),
    oauthClient: policy("per-client", "oauth-client", config.RATE_LIMIT_OAUTH_CLIENT),
    oauthAddress: policy("per-address", "oauth-address", config.RATE_LIMIT_OAUTH_ADDRESS),
    registrationAddress: policy("per-address", "registration-address", config.RATE_LIMIT_REGISTRATION_ADDRESS),
  };
}
