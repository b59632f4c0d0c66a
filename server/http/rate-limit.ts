import type { Environment } from "@/db/schema";
import { authenticateBearer, type Admission } from "@/server/api-auth/bearer";
import { giveBack } from "@/server/platform/rate-limits/buckets";
import { rateLimitPolicies } from "@/server/platform/rate-limits/policies";
import { rateLimitHeaders, refusal, type Verdict } from "@/server/platform/rate-limits/verdict";
import { clientAddress } from "@/server/platform/request/client-address";
import { ApiError } from "@/common/http/errors";

// The API's rate limits (docs/api.md#rate-limits): every request with a working access token
// takes one from its token's bucket and one from its client's, in the statement that looks the
// token up (server/api-auth/bearer.ts); a batch of data sets is one request. A request without a
// working token (it will be answered 401) takes one from its address's bucket instead, so a
// stream of guessed tokens is paced too and every answer can say how its bucket stands.

/** The request's principal (or the 401 it earns) and the buckets it drew on, in one statement. */
export async function admitApiRequest(request: Request, environment: Environment): Promise<Admission> {
  const policies = rateLimitPolicies();
  const metering = policies && {
    token: policies.apiToken,
    client: policies.apiClient,
    address: policies.apiAddress,
    key: clientAddress(request.headers),
  };
  return authenticateBearer({ authorization: request.headers.get("authorization"), environment, metering });
}

/** Throws 429 RATE_LIMITED when a bucket refused the request; the others get their request back, so a refused request counts nowhere. */
export async function refuseOverLimit(verdicts: Verdict[]): Promise<void> {
  const refused = refusal(verdicts);
  if (!refused) return;
  await giveBack(verdicts.filter((v) => v.allowed));
  const what = refused.policies.includes("per-token")
    ? "this access token"
    : refused.policies.includes("per-address")
      ? "this address without a working access token"
      : "this client";
  throw new ApiError(
    "RATE_LIMITED",
    `Too many requests for ${what}. Retry after ${refused.retryAfterSeconds} seconds.`,
    [],
    { "Retry-After": String(refused.retryAfterSeconds) },
  );
}

/** Every answer to a request that drew on buckets says how they stand. */
export function withRateLimitHeaders(response: Response, verdicts: Verdict[]): Response {
  for (const [name, value] of Object.entries(rateLimitHeaders(verdicts))) response.headers.set(name, value);
  return response;
}
