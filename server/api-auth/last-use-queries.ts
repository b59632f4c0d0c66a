import { and, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { accountGrants } from "@/db/schema";

// drizzle only: the "last used" stamp on a driver's grant (last-use.ts).

/**
 * Stamps the grant as used now, unless it was within the last minute (so several processes, each
 * throttling on its own, still write the row at most once a minute). Revoked grants are left alone.
 */
export async function touchGrantUse(db: Executor, { accountId, appId }: { accountId: number; appId: number }) {
  await db
    .update(accountGrants)
    .set({ lastUsedAt: sql`now()` })
    .where(
      and(
        eq(accountGrants.accountId, accountId),
        eq(accountGrants.appId, appId),
        isNull(accountGrants.revokedAt),
        sql`(${accountGrants.lastUsedAt} is null or ${accountGrants.lastUsedAt} < now() - interval '1 minute')`,
      ),
    );
}
