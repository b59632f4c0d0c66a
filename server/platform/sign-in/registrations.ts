import { SignInRefused } from "@/common/auth/sign-in-errors";
import { takeFromBuckets } from "@/server/platform/rate-limits/buckets";
import { rateLimitPolicies } from "@/server/platform/rate-limits/policies";
import { refusal } from "@/server/platform/rate-limits/verdict";

/**
 * Takes one registration from the client address's bucket (docs/operations.md#rate-limits), or
 * refuses with the wait. Driver and partner sign-ups share the bucket: one address, one budget of
 * argon2 hashes, whichever form it posts. Called before anything is hashed or looked up.
 */
export async function admitRegistration(address: string): Promise<void> {
  const policies = rateLimitPolicies();
  if (!policies) return;
  const refused = refusal(await takeFromBuckets([{ policy: policies.registrationAddress, key: address }]));
  if (refused) throw new SignInRefused({ kind: "registrations_limited", retryAfterSeconds: refused.retryAfterSeconds });
}
