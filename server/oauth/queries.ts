import { and, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { accountGrants, appCredentials, oauthCodes, oauthTokens, partnerApps } from "@/db/schema";
import type { GrantScope } from "@/common/oauth/grant-scope";

// drizzle only: the OAuth tables.

export async function findCredentialByClientId(db: Executor, { clientId }: { clientId: string }) {
  const [row] = await db
    .select({
      credentialId: appCredentials.id,
      clientId: appCredentials.clientId,
      secretHash: appCredentials.secretHash,
      environment: appCredentials.environment,
      appId: partnerApps.id,
      appName: partnerApps.name,
      ownerName: partnerApps.ownerName,
      redirectUris: partnerApps.redirectUris,
      isPublic: partnerApps.isPublic,
    })
    .from(appCredentials)
    .innerJoin(partnerApps, eq(partnerApps.id, appCredentials.appId))
    .where(eq(appCredentials.clientId, clientId))
    .limit(1);
  return row ?? null;
}

export type CredentialRow = NonNullable<Awaited<ReturnType<typeof findCredentialByClientId>>>;

export async function findCredentialById(db: Executor, { credentialId }: { credentialId: number }) {
  const [row] = await db
    .select({ clientId: appCredentials.clientId })
    .from(appCredentials)
    .where(eq(appCredentials.id, credentialId))
    .limit(1);
  return row ? findCredentialByClientId(db, { clientId: row.clientId }) : null;
}

export async function findCodeByHash(db: Executor, { codeHash }: { codeHash: string }) {
  const [row] = await db.select().from(oauthCodes).where(eq(oauthCodes.codeHash, codeHash)).limit(1);
  return row ?? null;
}

/** Marks a code used; false when it already was (a concurrent exchange won). */
export async function consumeCode(db: Executor, { codeHash }: { codeHash: string }) {
  const rows = await db
    .update(oauthCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(oauthCodes.codeHash, codeHash), isNull(oauthCodes.usedAt)))
    .returning({ id: oauthCodes.id });
  return rows.length > 0;
}

export async function insertToken(db: Executor, values: typeof oauthTokens.$inferInsert) {
  const [row] = await db.insert(oauthTokens).values(values).returning({ id: oauthTokens.id });
  return row!.id;
}

export async function setRefreshToken(
  db: Executor,
  { id, refreshHash, refreshExpiresAt }: { id: number; refreshHash: string; refreshExpiresAt: Date },
) {
  await db.update(oauthTokens).set({ refreshHash, refreshExpiresAt }).where(eq(oauthTokens.id, id));
}

export async function findTokenByRefreshHash(db: Executor, { refreshHash }: { refreshHash: string }) {
  const [row] = await db.select().from(oauthTokens).where(eq(oauthTokens.refreshHash, refreshHash)).limit(1);
  return row ?? null;
}

/** Rotates a refresh token away: false when it was already used (reuse, or a concurrent rotation). */
export async function markRefreshUsed(db: Executor, { id }: { id: number }) {
  const now = new Date();
  const rows = await db
    .update(oauthTokens)
    .set({ refreshUsedAt: now, revokedAt: sql`coalesce(${oauthTokens.revokedAt}, now())` })
    .where(and(eq(oauthTokens.id, id), isNull(oauthTokens.refreshUsedAt), isNull(oauthTokens.revokedAt)))
    .returning({ id: oauthTokens.id });
  return rows.length > 0;
}

export async function revokeFamily(db: Executor, { familyId }: { familyId: string }) {
  await db
    .update(oauthTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(oauthTokens.familyId, familyId), isNull(oauthTokens.revokedAt)));
}

/** Revokes every token descended from a code: those issued from it and their rotations. */
export async function revokeTokensFromCode(db: Executor, { codeHash }: { codeHash: string }) {
  const code = db.select({ id: oauthCodes.id }).from(oauthCodes).where(eq(oauthCodes.codeHash, codeHash));
  const families = db
    .select({ familyId: oauthTokens.familyId })
    .from(oauthTokens)
    .where(inArray(oauthTokens.originCodeId, code));
  await db
    .update(oauthTokens)
    .set({ revokedAt: new Date() })
    .where(
      and(
        isNull(oauthTokens.revokedAt),
        or(inArray(oauthTokens.familyId, families), inArray(oauthTokens.originCodeId, code)),
      ),
    );
}

/** Whether the account grants the app access, holding a share lock on that grant until commit. */
/** The active grant, share-locked, with what it grants (the token answer's `scope`); null when there is none. */
export async function lockActiveGrant(
  db: Executor,
  { accountId, appId }: { accountId: number; appId: number },
): Promise<GrantScope | null> {
  const [row] = await db
    .select({
      location: accountGrants.locationPrecision,
      data: accountGrants.dataScope,
      account: accountGrants.accountScope,
    })
    .from(accountGrants)
    .where(and(eq(accountGrants.accountId, accountId), eq(accountGrants.appId, appId), isNull(accountGrants.revokedAt)))
    .for("share");
  return row ?? null;
}

export async function findTokenByAccessHash(db: Executor, { accessHash }: { accessHash: string }) {
  const [row] = await db.select().from(oauthTokens).where(eq(oauthTokens.accessHash, accessHash)).limit(1);
  return row ?? null;
}
