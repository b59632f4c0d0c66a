import { z } from "zod";
import { db } from "@/db/client";
import { environments, type Environment } from "@/db/schema";
import { findAccountByUsername } from "@/server/accounts/queries";
import { hashPassword, verifyPassword } from "@/server/platform/security/passwords";
import { SignInRefused } from "@/common/auth/sign-in-errors";
import { beginAttempt, forgiveAttempt, signInKeys } from "@/server/platform/sign-in/throttle";

/** Who a session belongs to: one account of one environment. */
export type SessionUser = { id: string; accountId: number; environment: Environment; username: string; name: string };

const signInInput = z.object({
  environment: z.enum(environments),
  username: z.string().trim().min(1).max(200),
  password: z.string().min(1).max(200),
});

let dummyHash: Promise<string> | undefined;

// Checks a driver's username and password in one environment, slowed down per account and per
// address after repeated failures (server/platform/sign-in/throttle.ts). An unknown username costs
// the same argon2 verification as a known one, so timing does not tell which usernames exist.
export async function signInWithPassword(raw: unknown, address: string): Promise<SessionUser> {
  const parsed = signInInput.safeParse(raw);
  if (!parsed.success) throw new SignInRefused({ kind: "invalid_credentials", waitSeconds: 0 });
  const { environment, username, password } = parsed.data;

  const keys = signInKeys({ environment, username, address });
  const attempt = await beginAttempt(keys);
  if (!attempt.allowed) throw new SignInRefused({ kind: "throttled", retryAfterSeconds: attempt.retryAfterSeconds });

  const account = await findAccountByUsername(db(), { environment, username });
  const matches = account
    ? await verifyPassword(account.passwordHash, password)
    : await verifyPassword(await (dummyHash ??= hashPassword("no-such-account")), password).then(() => false);
  if (!account || !matches)
    throw new SignInRefused({ kind: "invalid_credentials", waitSeconds: attempt.waitIfFailedSeconds });

  await forgiveAttempt(keys);
  return sessionUser(account);
}

export function sessionUser(account: {
  id: number;
  environment: Environment;
  username: string;
  firstName: string;
  lastName: string;
}): SessionUser {
  return {
    id: String(account.id),
    accountId: account.id,
    environment: account.environment,
    username: account.username,
    name: `${account.firstName} ${account.lastName}`.trim(),
  };
}
