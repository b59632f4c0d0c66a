import { and, eq, isNull, or } from "drizzle-orm";
import { db } from "@/db/client";
import { accountGrants } from "@/db/schema";
import type { LocationPrecision } from "@/common/oauth/grant-scope";
import type { NotificationRow } from "./serialize";

// The location precision each notification is shown at (docs/oauth.md#scopes): its app's grant
// for its account as it stands now, so a driver's later choice reaches reads, deliveries still to
// be sent and feed pages alike. One statement for a page or a delivery batch. A notification of
// no account carries no position. A revoked grant shows none: the app no longer sees the account
// (the console, the app's partner, still lists its notifications, without their positions).
// The event feed's page applies the same rule inside its one statement (feed.ts).
export async function precisionsOf(
  rows: Pick<NotificationRow, "accountId" | "appId">[],
): Promise<(row: Pick<NotificationRow, "accountId" | "appId">) => LocationPrecision> {
  const pairs = new Map<string, { accountId: number; appId: number }>();
  for (const r of rows)
    if (r.accountId !== null) pairs.set(`${r.accountId}:${r.appId}`, { accountId: r.accountId, appId: r.appId });
  const found = new Map<string, LocationPrecision>();
  if (pairs.size > 0) {
    const grants = await db()
      .select({
        accountId: accountGrants.accountId,
        appId: accountGrants.appId,
        location: accountGrants.locationPrecision,
      })
      .from(accountGrants)
      .where(
        and(
          isNull(accountGrants.revokedAt),
          or(
            ...[...pairs.values()].map((p) =>
              and(eq(accountGrants.accountId, p.accountId), eq(accountGrants.appId, p.appId)),
            ),
          ),
        ),
      );
    for (const g of grants) found.set(`${g.accountId}:${g.appId}`, g.location);
  }
  // A grant revoked, or gone altogether (the app's access deleted with its rows): nothing of the position.
  return (row) => (row.accountId === null ? "precise" : (found.get(`${row.accountId}:${row.appId}`) ?? "none"));
}
