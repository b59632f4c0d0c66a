import { db } from "@/db/client";
import { insertAccount, newAccountRow } from "@/server/accounts/queries";
import { uniqueViolation } from "@/db/errors";
import { hashPassword } from "@/server/platform/security/passwords";
import { admitRegistration } from "@/server/platform/sign-in/registrations";
import { sessionUser, type SessionUser } from "./credentials";
import { registrationInput, registrationProblems } from "@/common/auth/registration-form";
import { SignInRefused } from "@/common/auth/sign-in-errors";

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
