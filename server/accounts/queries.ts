import { and, asc, count, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { accountGrants, accounts, type Environment } from "@/db/schema";
import type { Page } from "@/common/http/paging";

type NewAccount = typeof accounts.$inferInsert;

/** Ids of the accounts an app may act on: those it created or that authorized it, not revoked. */
export const grantedAccountIds = (appId: number) =>
  sql`(select ${accountGrants.accountId} from ${accountGrants} where ${accountGrants.appId} = ${appId} and ${accountGrants.revokedAt} is null)`;

export type AccountScope = { environment: Environment } & (
  { appId: number; accountId?: undefined } | { accountId: number; appId?: undefined }
);

function scopeWhere(scope: AccountScope) {
  return and(
    eq(accounts.environment, scope.environment),
    scope.accountId !== undefined
      ? eq(accounts.id, scope.accountId)
      : inArray(accounts.id, grantedAccountIds(scope.appId)),
  );
}

/**
 * `withAccountScope`: an app's accounts whose driver granted it the `account` scope only (a
 * client-credentials token's list, docs/oauth.md#scopes).
 */
export async function listAccounts(
  db: Executor,
  {
    scope,
    page,
    order,
    withAccountScope = false,
  }: { scope: AccountScope; page: Page; order: "asc" | "desc"; withAccountScope?: boolean },
) {
  const granted =
    withAccountScope && scope.appId !== undefined
      ? sql`${accounts.id} in (select ${accountGrants.accountId} from ${accountGrants} where
        ${accountGrants.appId} = ${scope.appId} and ${accountGrants.revokedAt} is null and
        ${accountGrants.accountScope})`
      : undefined;
  const where = and(scopeWhere(scope), granted);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(accounts)
      .where(where)
      .orderBy(order === "asc" ? asc(accounts.id) : desc(accounts.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(accounts).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function findAccount(db: Executor, { scope, id }: { scope: AccountScope; id: number }) {
  const [row] = await db
    .select()
    .from(accounts)
    .where(and(eq(accounts.id, id), scopeWhere(scope)))
    .limit(1);
  return row ?? null;
}

/** The row for a new account from its validated fields (API creation and driver registration). */
export function newAccountRow(
  environment: Environment,
  fields: {
    username: string;
    firstName: string;
    lastName: string;
    email?: string;
    zipcode?: string;
    phone?: string;
    timeZone?: string;
    preferredContact?: string;
  },
  passwordHash: string,
): NewAccount {
  return {
    environment,
    username: fields.username,
    passwordHash,
    firstName: fields.firstName,
    lastName: fields.lastName,
    email: fields.email ?? null,
    zipcode: fields.zipcode ?? null,
    phone: fields.phone ?? null,
    timeZone: fields.timeZone ?? null,
    preferredContact: fields.preferredContact ?? null,
  };
}

export async function insertAccount(db: Executor, values: NewAccount) {
  const [row] = await db.insert(accounts).values(values).returning();
  return row!;
}

export async function updateAccountRow(db: Executor, { id, values }: { id: number; values: Partial<NewAccount> }) {
  const [row] = await db.update(accounts).set(values).where(eq(accounts.id, id)).returning();
  return row ?? null;
}

export async function deleteAccountRow(db: Executor, { id }: { id: number }) {
  const deleted = await db.delete(accounts).where(eq(accounts.id, id)).returning({ id: accounts.id });
  return deleted.length > 0;
}

export async function insertGrant(
  db: Executor,
  values: { accountId: number; appId: number; source: "created" | "authorized" },
) {
  await db
    .insert(accountGrants)
    .values(values)
    .onConflictDoUpdate({ target: [accountGrants.accountId, accountGrants.appId], set: { revokedAt: null } });
}

export async function hasActiveGrant(db: Executor, { accountId, appId }: { accountId: number; appId: number }) {
  const [row] = await db
    .select({ accountId: accountGrants.accountId })
    .from(accountGrants)
    .where(and(eq(accountGrants.accountId, accountId), eq(accountGrants.appId, appId), isNull(accountGrants.revokedAt)))
    .limit(1);
  return Boolean(row);
}

/** The account a driver signs in as: usernames are unique per environment regardless of case. */
export async function findAccountByUsername(
  db: Executor,
  { environment, username }: { environment: Environment; username: string },
) {
  const [row] = await db
    .select()
    .from(accounts)
    .where(and(eq(accounts.environment, environment), eq(sql`lower(${accounts.username})`, username.toLowerCase())))
    .limit(1);
  return row ?? null;
}
