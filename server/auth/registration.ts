import { db } from "@/db/client";
import { insertAccount, newAccountRow } from "@/server/accounts/queries";
import { uniqueViolation } from "@/db/errors";
import { takeFromBuckets } from "@/server/platform/rate-limits/buckets";
import { rateLimitPolicies } from "@/server/platform/rate-limits/policies";
import { refusal } from "@/server/platform/rate-limits/verdict";
import { hashPassword } from "@/server/platform/security/passwords";
import { sessionUser, type SessionUser } from "./credentials";
import { registrationInput, registrationProblems } from "@/common/auth/registration-form";
import { SignInRefused } from "@/common/auth/sign-in-errors";

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

// A driver creating an account on the authorization page or the driver site. The account belongs
// to no app yet: an app gets access only through the consent that follows (account_grants).
// Every attempt that gets as far as hashing a password and writing counts, taken or not.
export async function registerDriver(raw: unknown, address: string): Promise<SessionUser> {
  const parsed = registrationInput.safeParse(raw);
  if (!parsed.success) throw new SignInRefused({ kind: "fields", fieldErrors: registrationProblems(raw) });
  const input = parsed.data;
  await admitRegistration(address);
  try {
    const account = await insertAccount(
      db(),
      newAccountRow(input.environment, input, await hashPassword(input.password)),
    );
    return sessionUser(account);
  } catch (error) {
    if (uniqueViolation(error) === "accounts_env_username_key") {
      throw new SignInRefused({
        kind: "fields",
        fieldErrors: [{ fieldName: "username", message: "This username is already taken." }],
      });
    }
    throw error;
  }
}
