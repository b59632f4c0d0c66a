import { and, asc, eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { appCredentials, partnerAppOwners, partnerApps } from "@/db/schema";

// Every read starts from the owner: an app id another partner owns finds nothing.

export async function listOwnedApps(db: Executor, { partnerUserId }: { partnerUserId: number }) {
  return db
    .select({
      id: partnerApps.id,
      name: partnerApps.name,
      isPublic: partnerApps.isPublic,
      createdAt: partnerApps.createdAt,
      obligationsConfirmedAt: partnerAppOwners.obligationsConfirmedAt,
    })
    .from(partnerAppOwners)
    .innerJoin(partnerApps, eq(partnerApps.id, partnerAppOwners.appId))
    .where(eq(partnerAppOwners.partnerUserId, partnerUserId))
    .orderBy(asc(partnerApps.id));
}

export async function findOwnedApp(
  db: Executor,
  { partnerUserId, appId, forUpdate = false }: { partnerUserId: number; appId: number; forUpdate?: boolean },
) {
  const query = db
    .select({
      id: partnerApps.id,
      name: partnerApps.name,
      ownerName: partnerApps.ownerName,
      redirectUris: partnerApps.redirectUris,
      isPublic: partnerApps.isPublic,
      dataProvider: partnerApps.dataProvider,
      createdAt: partnerApps.createdAt,
      obligationsConfirmedAt: partnerAppOwners.obligationsConfirmedAt,
    })
    .from(partnerAppOwners)
    .innerJoin(partnerApps, eq(partnerApps.id, partnerAppOwners.appId))
    .where(and(eq(partnerAppOwners.partnerUserId, partnerUserId), eq(partnerAppOwners.appId, appId)));
  const [row] = forUpdate ? await query.for("update") : await query;
  return row ?? null;
}

export type OwnedApp = NonNullable<Awaited<ReturnType<typeof findOwnedApp>>>;

export async function credentialsOf(db: Executor, { appId }: { appId: number }) {
  return db
    .select({
      id: appCredentials.id,
      environment: appCredentials.environment,
      clientId: appCredentials.clientId,
      createdAt: appCredentials.createdAt,
    })
    .from(appCredentials)
    .where(eq(appCredentials.appId, appId));
}

export async function insertOwner(db: Executor, values: { appId: number; partnerUserId: number }) {
  await db.insert(partnerAppOwners).values(values);
}

export async function updateAppRow(
  db: Executor,
  {
    appId,
    values,
  }: {
    appId: number;
    values: Partial<{ name: string; ownerName: string | null; redirectUris: string[]; isPublic: boolean }>;
  },
) {
  await db.update(partnerApps).set(values).where(eq(partnerApps.id, appId));
}

export async function markObligationsConfirmed(db: Executor, { appId, at }: { appId: number; at: Date }) {
  await db.update(partnerAppOwners).set({ obligationsConfirmedAt: at }).where(eq(partnerAppOwners.appId, appId));
}
