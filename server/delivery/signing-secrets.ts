import { and, desc, eq, gt, isNull, or } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { appSigningSecrets } from "@/db/schema";
import { newSigningSecret } from "./signing";

// An app's webhook signing secrets (app_signing_secrets): the current one has no expiry; a
// rotation gives every current one an expiry ROTATION_OVERLAP_MS away and adds a new current one.
// Until then the worker signs with all of them (loadForSending: every unexpired secret), so a
// receiver that still knows only the old secret keeps verifying deliveries meanwhile.

const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

const unexpired = (now: Date) => or(isNull(appSigningSecrets.expiresAt), gt(appSigningSecrets.expiresAt, now));

/** The secrets that sign now, newest first, without their values. */
export async function signingSecretsInUse(db: Executor, { appId, now = new Date() }: { appId: number; now?: Date }) {
  return db
    .select({
      id: appSigningSecrets.id,
      createdAt: appSigningSecrets.createdAt,
      expiresAt: appSigningSecrets.expiresAt,
    })
    .from(appSigningSecrets)
    .where(and(eq(appSigningSecrets.appId, appId), unexpired(now)))
    .orderBy(desc(appSigningSecrets.id));
}

export async function currentSigningSecret(db: Executor, { appId }: { appId: number }): Promise<string | null> {
  const [row] = await db
    .select({ secret: appSigningSecrets.secret })
    .from(appSigningSecrets)
    .where(and(eq(appSigningSecrets.appId, appId), isNull(appSigningSecrets.expiresAt)))
    .orderBy(desc(appSigningSecrets.id))
    .limit(1);
  return row?.secret ?? null;
}

/** Call inside a transaction holding the app's row lock (two rotations at once make one current secret each, in turn). */
export async function rotateSigningSecret(
  db: Executor,
  { appId, now = new Date() }: { appId: number; now?: Date },
): Promise<{ secret: string; previousExpiresAt: Date }> {
  const previousExpiresAt = new Date(now.getTime() + ROTATION_OVERLAP_MS);
  await db
    .update(appSigningSecrets)
    .set({ expiresAt: previousExpiresAt })
    .where(
      and(
        eq(appSigningSecrets.appId, appId),
        or(isNull(appSigningSecrets.expiresAt), gt(appSigningSecrets.expiresAt, previousExpiresAt)),
      ),
    );
  const secret = newSigningSecret();
  await db.insert(appSigningSecrets).values({ appId, secret });
  return { secret, previousExpiresAt };
}
