import { and, count, desc, eq, gte, max, sql } from "drizzle-orm";
import { db } from "@/db/client";
import { shareLinks, shareLinkViews, vehicles } from "@/db/schema";

// The shared locations' statements (drizzle only). "Active" is decided by the database's clock in
// one expression, so the page, its stream and the list agree on when a link ended.

const active = sql<boolean>`(${shareLinks.endedAt} is null and ${shareLinks.endsAt} > now())`;

export async function insertShareLink(input: { accountId: number; vehicleId: number; token: string; endsAt: Date }) {
  const [row] = await db().insert(shareLinks).values(input).returning();
  return row!;
}

/** A vehicle's links that have not ended, with their views, newest first. */
export async function activeLinksOfVehicle({ accountId, vehicleId }: { accountId: number; vehicleId: number }) {
  return db()
    .select({
      id: shareLinks.id,
      token: shareLinks.token,
      createdAt: shareLinks.createdAt,
      endsAt: shareLinks.endsAt,
      views: count(shareLinkViews.id),
      lastViewedAt: max(shareLinkViews.viewedAt),
    })
    .from(shareLinks)
    .leftJoin(shareLinkViews, eq(shareLinkViews.linkId, shareLinks.id))
    .where(and(eq(shareLinks.accountId, accountId), eq(shareLinks.vehicleId, vehicleId), active))
    .groupBy(shareLinks.id)
    .orderBy(desc(shareLinks.createdAt), desc(shareLinks.id));
}

/** Ends the account's link if it is still active; answers the link when it did. */
export async function endLink({
  accountId,
  vehicleId,
  linkId,
}: {
  accountId: number;
  vehicleId: number;
  linkId: number;
}) {
  const [row] = await db()
    .update(shareLinks)
    .set({ endedAt: sql`now()` })
    .where(
      and(eq(shareLinks.id, linkId), eq(shareLinks.accountId, accountId), eq(shareLinks.vehicleId, vehicleId), active),
    )
    .returning({ id: shareLinks.id });
  return row ?? null;
}

/** The link a token names, whether it is active, and what its page may show of the vehicle. */
export async function linkByToken(token: string) {
  const [row] = await db()
    .select({
      id: shareLinks.id,
      accountId: shareLinks.accountId,
      endsAt: shareLinks.endsAt,
      active,
      label: vehicles.label,
      year: vehicles.year,
      make: vehicles.make,
      model: vehicles.model,
      running: vehicles.running,
      paused: vehicles.locationPaused,
      latitude: vehicles.lastLatitude,
      longitude: vehicles.lastLongitude,
      at: vehicles.lastWaypointAt,
    })
    .from(shareLinks)
    .innerJoin(vehicles, eq(vehicles.id, shareLinks.vehicleId))
    .where(eq(shareLinks.token, token));
  return row ?? null;
}

/** One opening of the page. */
export async function insertView(linkId: number): Promise<void> {
  await db().insert(shareLinkViews).values({ linkId });
}

/** The account's links, every one it still has (the data export). */
export async function linksOfAccount(accountId: number) {
  return db()
    .select({
      id: shareLinks.id,
      vehicleId: shareLinks.vehicleId,
      createdAt: shareLinks.createdAt,
      endsAt: shareLinks.endsAt,
      endedAt: shareLinks.endedAt,
      views: count(shareLinkViews.id),
    })
    .from(shareLinks)
    .leftJoin(shareLinkViews, eq(shareLinkViews.linkId, shareLinks.id))
    .where(eq(shareLinks.accountId, accountId))
    .groupBy(shareLinks.id)
    .orderBy(shareLinks.id);
}

/** Every view of the account's links since `since`, newest first, with the vehicle it showed. */
export async function viewsOfAccount({ accountId, since }: { accountId: number; since: Date }) {
  return db()
    .select({
      linkId: shareLinkViews.linkId,
      vehicleId: shareLinks.vehicleId,
      label: vehicles.label,
      year: vehicles.year,
      make: vehicles.make,
      model: vehicles.model,
      viewedAt: shareLinkViews.viewedAt,
    })
    .from(shareLinkViews)
    .innerJoin(shareLinks, eq(shareLinks.id, shareLinkViews.linkId))
    .innerJoin(vehicles, eq(vehicles.id, shareLinks.vehicleId))
    .where(and(eq(shareLinks.accountId, accountId), gte(shareLinkViews.viewedAt, since)))
    .orderBy(desc(shareLinkViews.viewedAt), desc(shareLinkViews.id));
}
