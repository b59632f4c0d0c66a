import { clientAddress } from "@/server/platform/request/client-address";
import { logger } from "@/server/platform/log";
import { giveBack, takeFromBuckets, type Check } from "@/server/platform/rate-limits/buckets";
import { rateLimitPolicies } from "@/server/platform/rate-limits/policies";
import { rateLimitHeaders, refusal } from "@/server/platform/rate-limits/verdict";
import { outageAnswer } from "./outage";

// Rate limits of the token and revocation endpoints (docs/oauth.md#rate-limits). Each request is
// charged to whoever it proved to be: to its client's bucket when the client authenticated (its
// secret matched, or for a public client, which has no secret, its code, refresh token or token
// proved it), to its client address's bucket otherwise (a wrong or missing secret, an unknown
// client, a request refused before any client was looked at). So naming another app spends
// nothing of that app's budget, guesses are counted where they come from, and many honest
// clients behind one address are never slowed. Both buckets are taken before the request is
// looked at and the one not owed is given back after, so parallel requests cannot slip through
// between check and count, and a request over either limit is refused before any work. The
// database out of reach, here or in the endpoint's own work, is answered 503 temporarily_unavailable.

/** What the endpoint answered, and whether the request proved to be its client's. */
export type OAuthAnswer = { response: Response; clientAuthenticated: boolean };

export async function withOAuthRateLimits(request: Request, clientId: string | undefined, answer: () => Promise<OAuthAnswer>): Promise<Response> {
  try {
    return await limited(request, clientId, answer);
  } catch (error) {
    const outage = outageAnswer(error);
    if (outage) return outage;
    logger.error({ err: error }, "OAuth endpoint failed");
    return Response.json({ error: "server_error", error_description: "An unexpected error occurred." }, { status: 500, headers: { "Cache-Control": "no-store", Pragma: "no-cache" } });
  }
}

async function limited(request: Request, clientId: string | undefined, answer: () => Promise<OAuthAnswer>): Promise<Response> {
  const policies = rateLimitPolicies();
  if (!policies) return (await answer()).response;
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
  const { response, clientAuthenticated } = await answer();
  const owed = clientAuthenticated ? policies.oauthClient : policies.oauthAddress;
  await giveBack(verdicts.filter((v) => v.allowed && v.policy !== owed));
  return response;
}
