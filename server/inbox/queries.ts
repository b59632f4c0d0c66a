import { randomBytes } from "node:crypto";
import { and, desc, eq, gt, isNull, or, sql } from "drizzle-orm";
import { db, type Executor } from "@/db/client";
import { appSigningSecrets, sandboxInboxes, sandboxInboxRequests } from "@/db/schema";

// The sandbox inbox's SQL: the per-app row (made on first use), its requests, the 100-request cap.

const INBOX_KEEP = 100;

export type InboxRow = typeof sandboxInboxes.$inferSelect;
export type InboxRequestRow = typeof sandboxInboxRequests.$inferSelect;
export type NewInboxRequest = Omit<typeof sandboxInboxRequests.$inferInsert, "id" | "appId">;

/** The app's inbox, made now if it has none (two first views at once make one: the insert is idempotent). */
export async function ensureInbox({ appId }: { appId: number }): Promise<InboxRow> {
  await db()
    .insert(sandboxInboxes)
    .values({ appId, token: randomBytes(24).toString("base64url") })
    .onConflictDoNothing({ target: sandboxInboxes.appId });
  const [row] = await db().select().from(sandboxInboxes).where(eq(sandboxInboxes.appId, appId));
  return row!;
}

export async function findInboxByApp({ appId }: { appId: number }): Promise<InboxRow | null> {
  const [row] = await db().select().from(sandboxInboxes).where(eq(sandboxInboxes.appId, appId));
  return row ?? null;
}

/** The inbox row, locked: inserts into one inbox queue behind each other, so the cap holds exactly. */
export async function lockInboxByToken(tx: Executor, { token }: { token: string }): Promise<InboxRow | null> {
  const [row] = await tx.select().from(sandboxInboxes).where(eq(sandboxInboxes.token, token)).for("update");
  return row ?? null;
}

export async function setAnswerStatus({ appId, answerStatus }: { appId: number; answerStatus: number }): Promise<void> {
  await db().update(sandboxInboxes).set({ answerStatus }).where(eq(sandboxInboxes.appId, appId));
}

/** Stores a request and deletes all but the newest INBOX_KEEP of the app's, in the caller's transaction. */
export async function insertInboxRequest(
  tx: Executor,
  { appId, request }: { appId: number; request: NewInboxRequest },
): Promise<InboxRequestRow> {
  const [row] = await tx
    .insert(sandboxInboxRequests)
    .values({ appId, ...request })
    .returning();
  await tx.execute(sql`
    delete from ${sandboxInboxRequests}
    where ${sandboxInboxRequests.appId} = ${appId}
      and ${sandboxInboxRequests.id} <= (
        select id from ${sandboxInboxRequests} where ${sandboxInboxRequests.appId} = ${appId}
        order by id desc offset ${INBOX_KEEP} limit 1)`);
  return row!;
}

/** Newest first; with `afterId`, only requests newer than it (the live view's next batch). */
export async function listInboxRequests({
  appId,
  afterId,
}: {
  appId: number;
  afterId?: number;
}): Promise<InboxRequestRow[]> {
  const rows = await db()
    .select()
    .from(sandboxInboxRequests)
    .where(
      and(
        eq(sandboxInboxRequests.appId, appId),
        afterId === undefined ? undefined : gt(sandboxInboxRequests.id, afterId),
      ),
    )
    .orderBy(desc(sandboxInboxRequests.id))
    .limit(INBOX_KEEP);
  return rows;
}

/** The app's signing secrets that sign now (values included: the inbox verifies with them), newest first. */
export async function secretsSigningNow(
  tx: Executor,
  { appId, now }: { appId: number; now: Date },
): Promise<{ secret: string; expiresAt: Date | null }[]> {
  return tx
    .select({ secret: appSigningSecrets.secret, expiresAt: appSigningSecrets.expiresAt })
    .from(appSigningSecrets)
    .where(
      and(
        eq(appSigningSecrets.appId, appId),
        or(isNull(appSigningSecrets.expiresAt), gt(appSigningSecrets.expiresAt, now)),
      ),
    )
    .orderBy(desc(appSigningSecrets.id));
}
