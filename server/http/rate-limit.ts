import type { Environment } from "@/db/schema";
import { bearerHash } from "@/server/oauth/bearer";
import { giveBack, takeForAccessToken } from "@/server/rate-limits/buckets";
import { rateLimitPolicies } from "@/server/rate-limits/policies";
import { rateLimitHeaders, refusal, type Verdict } from "@/server/rate-limits/verdict";
import { ApiError } from "./errors";

// The API's rate limits (docs/api.md#rate-limits): every request with a working access token
// takes one from its token's bucket and one from its client's. One statement, run beside the
// token lookup; a batch of data sets is one request.

/** The buckets this request drew on; none when limits are off or the token does not work. */
export async function takeApiQuota(authorization: string | null, environment: Environment): Promise<Verdict[]> {
  const policies = rateLimitPolicies();
  const accessHash = bearerHash(authorization);
  if (!policies || !accessHash) return [];
  return takeForAccessToken({ accessHash, environment, token: policies.apiToken, client: policies.apiClient });
}

/** Throws 429 RATE_LIMITED when a bucket refused the request; the others get their request back, so a refused request counts nowhere. */
export async function refuseOverLimit(verdicts: Verdict[]): Promise<void> {
  const refused = refusal(verdicts);
  if (!refused) return;
  await giveBack(verdicts.filter((v) => v.allowed));
  const what = refused.policies.includes("per-token") ? "this access token" : "this client";
  throw new ApiError("RATE_LIMITED", `Too many requests for ${what}. Retry after ${refused.retryAfterSeconds} seconds.`, [], { "Retry-After": String(refused.retryAfterSeconds) });
}

/** Every answer to a request that drew on buckets says how they stand. */
export function withRateLimitHeaders(response: Response, verdicts: Verdict[]): Response {
  for (const [name, value] of Object.entries(rateLimitHeaders(verdicts))) response.headers.set(name, value);
  return response;
}
