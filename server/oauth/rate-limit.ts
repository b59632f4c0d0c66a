import { clientAddress } from "@/server/request/client-address";
import { logger } from "@/server/log";
import { giveBack, takeFromBuckets, type Check } from "@/server/rate-limits/buckets";
import { rateLimitPolicies } from "@/server/rate-limits/policies";
import { rateLimitHeaders, refusal } from "@/server/rate-limits/verdict";
import { outageAnswer } from "./outage";

// Rate limits of the token and revocation endpoints (docs/oauth.md#rate-limits). Per client id:
// every request naming it. Per client address: failed client authentications only (what a stream
// of guessed secrets is), so that many honest clients behind one address are never slowed. The
// address's request is taken before the secret is checked and given back when the client
// authenticated, so parallel guesses cannot slip through between check and count. The database out
// of reach, here or in the endpoint's own work, is answered 503 temporarily_unavailable.
export async function withOAuthRateLimits(request: Request, clientId: string | undefined, answer: () => Promise<Response>): Promise<Response> {
  try {
    return await limited(request, clientId, answer);
  } catch (error) {
    const outage = outageAnswer(error);
    if (outage) return outage;
    logger.error({ err: error }, "OAuth endpoint failed");
    return Response.json({ error: "server_error", error_description: "An unexpected error occurred." }, { status: 500, headers: { "Cache-Control": "no-store", Pragma: "no-cache" } });
  }
}

async function limited(request: Request, clientId: string | undefined, answer: () => Promise<Response>): Promise<Response> {
  const policies = rateLimitPolicies();
  if (!policies) return answer();
  const address: Check = { policy: policies.oauthAddress, key: clientAddress(request.headers) };
  // Longer client ids are refused unlooked-up (client-auth.ts): no bucket of their own.
  const checks = clientId && clientId.length <= 200 ? [address, { policy: policies.oauthClient, key: clientId }] : [address];
  const verdicts = await takeFromBuckets(checks);
  const refused = refusal(verdicts);
  if (refused) {
    await giveBack(verdicts.filter((v) => v.allowed));
    return Response.json(
      { error: "slow_down", error_description: `Too many requests. Retry after ${refused.retryAfterSeconds} seconds.` },
      { status: 429, headers: { "Cache-Control": "no-store", Pragma: "no-cache", "Retry-After": String(refused.retryAfterSeconds), ...rateLimitHeaders(verdicts) } },
    );
  }
  const response = await answer();
  // 401 is invalid_client at both endpoints: only that keeps the address's count.
  if (response.status !== 401) await giveBack(verdicts.filter((v) => v.allowed && v.policy === policies.oauthAddress));
  return response;
}
