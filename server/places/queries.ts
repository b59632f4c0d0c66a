import { and, asc, count, eq, sql } from "drizzle-orm";
import { db, type Executor } from "@/db/client";
import { accounts, places } from "@/db/schema";
import type { NewPlace, PlaceShape } from "./schemas";

// The places table, drizzle only: reads and writes scoped by the account (a place of another
// account is simply not there), and the account row lock that keeps the per-account limit exact.

export type PlaceRow = typeof places.$inferSelect;

const shapeColumns = (shape: PlaceShape) =>
  shape.kind === "circle"
    ? {
        kind: "circle" as const,
        centerLatitude: shape.center.latitude,
        centerLongitude: shape.center.longitude,
        radiusM: shape.radius,
        polygon: null,
      }
    : { kind: "polygon" as const, centerLatitude: null, centerLongitude: null, radiusM: null, polygon: shape.polygon };

export async function listPlacesOfAccount({ accountId }: { accountId: number }, ex: Executor = db()) {
  return ex.select().from(places).where(eq(places.accountId, accountId)).orderBy(asc(places.name), asc(places.id));
}

/**
 * Locks the account's row for the transaction: creates and imports of one account run one after
 * the other, so two of them cannot both pass the limit's count. False: the account is gone.
 */
export async function lockAccount(ex: Executor, { accountId }: { accountId: number }): Promise<boolean> {
  const rows = await ex.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for("update");
  return rows.length > 0;
}

export async function countPlaces(ex: Executor, { accountId }: { accountId: number }): Promise<number> {
  const [row] = await ex.select({ n: count() }).from(places).where(eq(places.accountId, accountId));
  return row?.n ?? 0;
}

export async function insertPlaces(ex: Executor, { accountId, items }: { accountId: number; items: NewPlace[] }) {
  if (items.length === 0) return [];
  return ex
    .insert(places)
    .values(items.map((p) => ({ accountId, name: p.name, ...shapeColumns(p.shape) })))
    .returning();
}

export async function updatePlace(
  { accountId, id, name, shape }: { accountId: number; id: number; name?: string; shape?: PlaceShape },
  ex: Executor = db(),
) {
  const [row] = await ex
    .update(places)
    .set({ ...(name !== undefined ? { name } : {}), ...(shape ? shapeColumns(shape) : {}), updatedAt: sql`now()` })
    .where(and(eq(places.accountId, accountId), eq(places.id, id)))
    .returning();
  return row ?? null;
}

export async function deletePlace({ accountId, id }: { accountId: number; id: number }, ex: Executor = db()) {
  const rows = await ex
    .delete(places)
    .where(and(eq(places.accountId, accountId), eq(places.id, id)))
    .returning({ id: places.id });
  return rows.length > 0;
}
