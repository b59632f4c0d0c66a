import { clientAddress } from "@/server/platform/request/client-address";
import { giveBack, takeFromBuckets, type Check } from "@/server/platform/rate-limits/buckets";
import { rateLimitPolicies } from "@/server/platform/rate-limits/policies";
import { rateLimitHeaders, refusal } from "@/server/platform/rate-limits/verdict";
import type { ClientProof } from "@/server/oauth/oauth-error";
import { oauthJson } from "./oauth-responses";

// Rate limits of the token and revocation endpoints (docs/oauth.md#rate-limits). Each request is
// charged to whoever it proved to be: to its client's bucket when the client authenticated (its
// secret matched, or for a public client, which has no secret, its code, refresh token or token
// proved it), to its client address's bucket otherwise (a wrong or missing secret, an unknown
// client, a request refused before any client was looked at). So naming another app spends
// nothing of that app's budget, guesses are counted where they come from, and many honest
// clients behind one address are never slowed. Both buckets are taken before the request is
// looked at and the one not owed is given back after, so parallel requests cannot slip through
// between check and count, and a request over either limit is refused before any work. A request
// whose answer failed (thrown past `answer`: the database out of reach, a bug) keeps both.

/**
 * The answer of `answer`, which sets `proof` as the request proves its client and answers every
 * OAuth error itself; or 429 slow_down before it is called.
 */
export async function withinOAuthRateLimits(
  request: Request,
  clientId: string | undefined,
  answer: (proof: ClientProof) => Promise<Response>,
): Promise<Response> {
  const proof: ClientProof = { clientAuthenticated: false };
  const policies = rateLimitPolicies();
  if (!policies) return answer(proof);
  const address: Check = { policy: policies.oauthAddress, key: clientAddress(request.headers) };
  // Longer client ids are refused unlooked-up (client-auth.ts): no bucket of their own.
  const checks =
    clientId && clientId.length <= 200 ? [address, { policy: policies.oauthClient, key: clientId }] : [address];
  const verdicts = await takeFromBuckets(checks);
  const refused = refusal(verdicts);
  if (refused) {
    await giveBack(verdicts.filter((v) => v.allowed));
    return oauthJson(
      429,
      { error: "slow_down", error_description: `Too many requests. Retry after ${refused.retryAfterSeconds} seconds.` },
      { "Retry-After": String(refused.retryAfterSeconds), ...rateLimitHeaders(verdicts) },
    );
  }
  const response = await answer(proof);
  const owed = proof.clientAuthenticated ? policies.oauthClient : policies.oauthAddress;
  await giveBack(verdicts.filter((v) => v.allowed && v.policy !== owed));
  return response;
}
