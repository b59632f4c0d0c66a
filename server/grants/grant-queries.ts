import { and, asc, desc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { accountGrants, appCredentials, oauthCodes, oauthTokens, partnerApps } from "@/db/schema";
import { PRECISIONS, type GrantScope, type LocationPrecision } from "@/common/oauth/grant-scope";

// drizzle only: which apps an account grants access (account_grants), and what goes with them.

const credentialsOfApp = (db: Executor, appId: number) =>
  db.select({ id: appCredentials.id }).from(appCredentials).where(eq(appCredentials.appId, appId));

/**
 * The driver's consent, with what they granted: it replaces what an active grant held, unless
 * `keep` (a driver who allowed the app before, sent straight back: their earlier choice stands,
 * including a precision lowered since on "Connected apps"). An app that
 * created the account keeps "created"; a grant revoked before starts over as "authorized",
 * granted now.
 */
export async function recordConsent(
  db: Executor,
  {
    accountId,
    appId,
    granted,
    locationAsked,
    keep = false,
  }: { accountId: number; appId: number; granted: GrantScope; locationAsked: LocationPrecision; keep?: boolean },
) {
  const scopes = {
    locationPrecision: granted.location,
    locationAsked,
    dataScope: granted.data,
    accountScope: granted.account,
  };
  await db
    .insert(accountGrants)
    .values({ accountId, appId, source: "authorized", ...scopes })
    .onConflictDoUpdate({
      target: [accountGrants.accountId, accountGrants.appId],
      set: {
        ...(keep ? keptUnlessRevoked(scopes) : scopes),
        source: sql`case when ${accountGrants.revokedAt} is null then ${accountGrants.source} else 'authorized' end`,
        grantedAt: sql`case when ${accountGrants.revokedAt} is null then ${accountGrants.grantedAt} else now() end`,
        lastUsedAt: sql`case when ${accountGrants.revokedAt} is null then ${accountGrants.lastUsedAt} else null end`,
        revokedAt: null,
      },
    });
}

const keptUnlessRevoked = (scopes: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(scopes).map(([key, value]) => {
      const column = accountGrants[key as "locationPrecision"];
      return [key, sql`case when ${accountGrants.revokedAt} is null then ${column} else ${value} end`];
    }),
  );

/** Marks the grant revoked; null when there was no active grant to revoke. */
export async function revokeGrantRow(db: Executor, { accountId, appId }: { accountId: number; appId: number }) {
  const [row] = await db
    .update(accountGrants)
    .set({ revokedAt: new Date() })
    .where(and(eq(accountGrants.accountId, accountId), eq(accountGrants.appId, appId), isNull(accountGrants.revokedAt)))
    .returning({ revokedAt: accountGrants.revokedAt });
  return row?.revokedAt ?? null;
}

/** Revokes every token the app holds for the account (access and refresh alike). */
export async function revokeTokensOfGrant(db: Executor, { accountId, appId }: { accountId: number; appId: number }) {
  const rows = await db
    .update(oauthTokens)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(oauthTokens.accountId, accountId),
        inArray(oauthTokens.credentialId, credentialsOfApp(db, appId)),
        isNull(oauthTokens.revokedAt),
      ),
    )
    .returning({ id: oauthTokens.id });
  return rows.length;
}

/** Expires the app's unused codes for the account, so none can be exchanged after a revocation. */
export async function expireCodesOfGrant(db: Executor, { accountId, appId }: { accountId: number; appId: number }) {
  await db
    .update(oauthCodes)
    .set({ expiresAt: new Date() })
    .where(
      and(
        eq(oauthCodes.accountId, accountId),
        inArray(oauthCodes.credentialId, credentialsOfApp(db, appId)),
        isNull(oauthCodes.usedAt),
        gt(oauthCodes.expiresAt, new Date()),
      ),
    );
}

/**
 * The apps an account currently grants access, oldest grant first, with when each last used its
 * access: a token of the app for this account accepted by the API (last_used_at, to the minute)
 * or issued (a code exchanged, a refresh), whichever is later; tokens from before the grant (an
 * earlier grant, since revoked) do not count.
 */
export async function listActiveGrants(db: Executor, { accountId }: { accountId: number }) {
  const lastTokenAt = sql`(select max(${oauthTokens.createdAt}) from ${oauthTokens} join ${appCredentials} on ${appCredentials.id} = ${oauthTokens.credentialId}
    where ${oauthTokens.accountId} = ${accountId} and ${appCredentials.appId} = ${partnerApps.id} and ${oauthTokens.createdAt} >= ${accountGrants.grantedAt})`;
  const lastUsedAt = sql`greatest(${accountGrants.lastUsedAt}, ${lastTokenAt})`.mapWith(accountGrants.lastUsedAt);
  return db
    .select({
      appId: partnerApps.id,
      name: partnerApps.name,
      ownerName: partnerApps.ownerName,
      source: accountGrants.source,
      location: accountGrants.locationPrecision,
      locationAsked: accountGrants.locationAsked,
      data: accountGrants.dataScope,
      account: accountGrants.accountScope,
      grantedAt: accountGrants.grantedAt,
      lastUsedAt,
    })
    .from(accountGrants)
    .innerJoin(partnerApps, eq(partnerApps.id, accountGrants.appId))
    .where(and(eq(accountGrants.accountId, accountId), isNull(accountGrants.revokedAt)))
    .orderBy(asc(accountGrants.grantedAt), desc(partnerApps.id));
}

export async function findAppName(db: Executor, { appId }: { appId: number }) {
  const [row] = await db.select({ name: partnerApps.name }).from(partnerApps).where(eq(partnerApps.id, appId)).limit(1);
  return row?.name ?? null;
}

/** What an app's active grants on these accounts hold, by account id (a client-credentials token's view). */
export async function grantScopesOf(db: Executor, { appId, accountIds }: { appId: number; accountIds: number[] }) {
  if (accountIds.length === 0) return new Map<number, GrantScope>();
  const rows = await db
    .select({
      accountId: accountGrants.accountId,
      location: accountGrants.locationPrecision,
      data: accountGrants.dataScope,
      account: accountGrants.accountScope,
    })
    .from(accountGrants)
    .where(
      and(
        eq(accountGrants.appId, appId),
        inArray(accountGrants.accountId, accountIds),
        isNull(accountGrants.revokedAt),
      ),
    );
  return new Map(rows.map(({ accountId, ...grant }) => [accountId, grant]));
}

/** The driver's later choice of precision; false when no active grant of the app allows it. */
export async function updateGrantPrecision(
  db: Executor,
  { accountId, appId, precision }: { accountId: number; appId: number; precision: LocationPrecision },
) {
  // Never more than the app asked for: only a grant whose app asked at least this much changes.
  const askedEnough = PRECISIONS.slice(0, PRECISIONS.indexOf(precision) + 1);
  const rows = await db
    .update(accountGrants)
    .set({ locationPrecision: precision })
    .where(
      and(
        eq(accountGrants.accountId, accountId),
        eq(accountGrants.appId, appId),
        isNull(accountGrants.revokedAt),
        inArray(accountGrants.locationAsked, askedEnough),
      ),
    )
    .returning({ appId: accountGrants.appId });
  return rows.length > 0;
}
