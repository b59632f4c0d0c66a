import { db } from "@/db/client";
import { insertAccount, newAccountRow } from "@/server/accounts/queries";
import { uniqueViolation } from "@/server/http/db-errors";
import { hashPassword } from "@/server/security/passwords";
import { sessionUser, type SessionUser } from "./credentials";
import { registrationInput, registrationProblems } from "@/common/auth/registration-form";
import { SignInRefused } from "@/common/auth/sign-in-errors";

// A driver creating an account on the authorization page or the driver site. The account belongs
// to no app yet: an app gets access only through the consent that follows (account_grants).
export async function registerDriver(raw: unknown): Promise<SessionUser> {
  const parsed = registrationInput.safeParse(raw);
  if (!parsed.success) throw new SignInRefused({ kind: "fields", fieldErrors: registrationProblems(raw) });
  const input = parsed.data;
  try {
    const account = await insertAccount(db(), newAccountRow(input.environment, input, await hashPassword(input.password)));
    return sessionUser(account);
  } catch (error) {
    if (uniqueViolation(error) === "accounts_env_username_key") {
      throw new SignInRefused({ kind: "fields", fieldErrors: [{ fieldName: "username", message: "This username is already taken." }] });
    }
    throw error;
  }
}
