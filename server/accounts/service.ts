import { grantFor, requireScope } from "@/server/grants/grant-view";
import { db } from "@/db/client";
import { cancelAccountDeliveries } from "@/server/delivery/cancel";
import { writeAppEvents } from "@/server/notifications/app-events";
import { appsWithAccess, deleteAccountTraces } from "./account-traces";
import { issueCode } from "@/server/oauth/codes";
import type { Principal } from "@/server/api-auth/principal";
import { notFound, uniqueError } from "@/common/http/errors";
import { retryingDeadlocks, uniqueViolation } from "@/db/errors";
import type { Environment } from "@/db/schema";
import type { Page } from "@/common/http/paging";
import { hashPassword } from "@/server/platform/security/passwords";
import {
  deleteAccountRow,
  findAccount,
  insertAccount,
  insertGrant,
  listAccounts,
  newAccountRow,
  updateAccountRow,
  type AccountScope,
} from "./queries";
import type { CreateAccountInput, UpdateAccountInput } from "@/common/accounts/schemas";
import { serializeAccount } from "./serialize";

// Who sees which accounts (docs/api.md#accounts-and-vehicles): a client-credentials token the accounts its app created
// or that authorized it; a user token only its own account. Anything else is 404.
export function accountScope(principal: Principal): AccountScope {
  return principal.kind === "user"
    ? { environment: principal.environment, accountId: principal.accountId }
    : { environment: principal.environment, appId: principal.appId };
}

const usernameTaken = () => uniqueError("username", "This username is already taken.");

// The account's fields need the `account` scope (docs/oauth.md#scopes): a user token without it
// gets 403 naming it; a client-credentials token lists only the accounts that granted it.
export async function listVisibleAccounts(principal: Principal, page: Page, order: "asc" | "desc" = "asc") {
  if (principal.grant) requireScope(principal.grant, "account");
  const { rows, total } = await listAccounts(db(), {
    scope: accountScope(principal),
    page,
    order,
    withAccountScope: principal.kind === "client" && principal.via === "token",
  });
  return { items: rows.map(serializeAccount), total };
}

/** GET, POST and DELETE /account/{id}: the account, once its grant to the caller holds `account`. */
export async function readAccount(principal: Principal, id: number) {
  const row = await getVisibleAccount(principal, id);
  requireScope(await grantFor(principal, row.id), "account");
  return row;
}

export async function getVisibleAccount(principal: Principal, id: number) {
  const row = await findAccount(db(), { scope: accountScope(principal), id });
  if (!row) throw notFound("account");
  return row;
}

// Creates the account, the creating app's grant and the authorization code in one transaction:
// a partner never gets an account it cannot reach, nor a code for an account that was not made.
export async function createAccount(principal: Principal, input: CreateAccountInput) {
  const passwordHash = await hashPassword(input.password);
  try {
    return await db().transaction(async (tx) => {
      const row = await insertAccount(tx, newAccountRow(principal.environment, input, passwordHash));
      await insertGrant(tx, { accountId: row.id, appId: principal.appId, source: "created" });
      const code = await issueCode(tx, {
        environment: principal.environment,
        credentialId: principal.credentialId,
        accountId: row.id,
        origin: "account_creation",
      });
      return { ...serializeAccount(row), accessToken: { code } };
    });
  } catch (error) {
    if (uniqueViolation(error) === "accounts_env_username_key") throw usernameTaken();
    throw error;
  }
}

export async function updateAccount(principal: Principal, id: number, input: UpdateAccountInput) {
  await readAccount(principal, id);
  const { password, ...fields } = input;
  const values = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  if (password !== undefined) values.passwordHash = await hashPassword(password);
  try {
    const row =
      Object.keys(values).length > 0
        ? await updateAccountRow(db(), { id, values })
        : await getVisibleAccount(principal, id);
    if (!row) throw notFound("account");
    return serializeAccount(row);
  } catch (error) {
    if (uniqueViolation(error) === "accounts_env_username_key") throw usernameTaken();
    throw error;
  }
}

// Permanent, and nothing is left that names the account or its vehicles (docs/decisions/0104-account-deletion-leaves-no-trace.md):
// the foreign keys and triggers cascade to vehicles, their data, grants, codes, tokens,
// subscriptions and notifications; what no key reaches is deleted first (account-traces.ts), and
// the account's queued deliveries leave the queue before the cascade (server/delivery/cancel.ts, which
// waits for a worker sending one right now). Every app that could reach the account gets an
// ACCOUNTDELETED app event in the same transaction (server/notifications/app-events.ts).
//
// A worker recording a failed attempt for one of the account's deliveries can deadlock with the
// deletion: its new attempt row holds the delivery row FOR KEY SHARE (the foreign key) while it waits
// to reschedule that row, which the deletion has locked to fail it, and the deletion waits to delete that
// delivery row (server/delivery/attempts.ts). PostgreSQL ends one of the two; when it is the deletion,
// it is tried again rather than answered 500.
export async function deleteAccount(principal: Principal, id: number) {
  const account = await readAccount(principal, id);
  await retryingDeadlocks(() => deleteAccountOnce(account, id));
}

async function deleteAccountOnce(account: { environment: Environment; username: string }, id: number) {
  await db().transaction(async (tx) => {
    const appIds = await appsWithAccess(tx, { accountId: id });
    await cancelAccountDeliveries(tx, { accountId: id, all: true });
    await deleteAccountTraces(tx, { accountId: id, environment: account.environment, username: account.username });
    if (!(await deleteAccountRow(tx, { id }))) throw notFound("account");
    await writeAppEvents(tx, {
      environment: account.environment,
      type: "ACCOUNTDELETED",
      accountId: id,
      appIds,
      at: new Date(),
    });
  });
}
