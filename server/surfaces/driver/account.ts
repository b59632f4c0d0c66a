import { z } from "zod";
import type { DriverSession } from "@/server/surfaces/driver/session";
import { createAccountBody, updateAccountBody, type AccountOut } from "@/common/accounts/schemas";
import { serializeAccount } from "@/server/accounts/serialize";
import { deleteAccount, getVisibleAccount, updateAccount } from "@/server/accounts/service";
import { validationError } from "@/common/http/errors";
import { parseOrThrow } from "@/common/http/zod-errors";
import { verifyPassword } from "@/server/platform/security/passwords";
import { driverPrincipal } from "./principal";

// The signed-in driver's own account, through the account service with the API's schemas, so a
// field error on the account page is the one the API gives for the same value.

export async function getDriverAccount(session: DriverSession): Promise<AccountOut> {
  return serializeAccount(await getVisibleAccount(driverPrincipal(session), session.accountId));
}

// The account fields (docs/api.md#accounts-and-vehicles); the password has its own form (it asks for the current one).
const accountForm = updateAccountBody.omit({ password: true });

export async function updateDriverAccount(session: DriverSession, body: unknown): Promise<AccountOut> {
  return updateAccount(driverPrincipal(session), session.accountId, parseOrThrow(accountForm, body, "account form"));
}

const passwordForm = z.object({
  currentPassword: z.string().min(1, "Enter your current password.").max(200),
  password: createAccountBody.shape.password,
});

// Someone at an unlocked, signed-in browser must not be able to take the account over: the
// current password is asked for.
export async function changeDriverPassword(session: DriverSession, body: unknown): Promise<void> {
  const input = parseOrThrow(passwordForm, body, "password form");
  const account = await getVisibleAccount(driverPrincipal(session), session.accountId);
  if (!(await verifyPassword(account.passwordHash, input.currentPassword))) {
    throw validationError(
      [{ fieldName: "currentPassword", errorCode: "INVALID", errorDisplay: "This is not your current password." }],
      "The current password is wrong.",
    );
  }
  await updateAccount(driverPrincipal(session), session.accountId, { password: input.password });
}

const deleteForm = z.object({ confirmUsername: z.string().max(100) });

// Permanent (docs/api.md#accounts-and-vehicles): the account's vehicles, trips, data and app grants go with it. The
// driver types their username to confirm, so no stray click or replayed request deletes it.
export async function deleteDriverAccount(session: DriverSession, body: unknown): Promise<void> {
  const { confirmUsername } = parseOrThrow(deleteForm, body, "delete form");
  const account = await getVisibleAccount(driverPrincipal(session), session.accountId);
  if (confirmUsername.trim().toLowerCase() !== account.username.toLowerCase()) {
    throw validationError(
      [{ fieldName: "confirmUsername", errorCode: "INVALID", errorDisplay: "Type your username exactly to confirm." }],
      "The account was not deleted.",
    );
  }
  await deleteAccount(driverPrincipal(session), session.accountId);
}
