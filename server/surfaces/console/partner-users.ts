import { eq } from "drizzle-orm";
import { z } from "zod";
import { db } from "@/db/client";
import { partnerUsers } from "@/db/schema";
import { admitRegistration } from "@/server/platform/sign-in/registrations";
import {
  beginAttempt,
  forgiveAttempt,
  ACCOUNT_POLICY,
  ADDRESS_POLICY,
  type ThrottleKey,
} from "@/server/platform/sign-in/throttle";
import { SignInRefused } from "@/common/auth/sign-in-errors";
import { uniqueViolation } from "@/db/errors";
import { hashPassword, verifyPassword } from "@/server/platform/security/passwords";

/** Who a partner session belongs to. `kind` is checked on every read of the session. */
export type PartnerSessionUser = { id: string; kind: "partner"; partnerUserId: number; email: string; name: string };

const partnerSignInInput = z.object({
  email: z.string().trim().toLowerCase().min(3).max(254),
  password: z.string().min(1).max(200),
});

const partnerSignUpInput = z.object({
  name: z.string().trim().min(1, "Enter your name.").max(120, "At most 120 characters."),
  email: z
    .string()
    .trim()
    .toLowerCase()
    .max(254, "At most 254 characters.")
    .pipe(z.email("Enter an e-mail address such as dev@company.example.")),
  password: z.string().min(10, "At least 10 characters.").max(200, "At most 200 characters."),
});

const sessionUser = (row: typeof partnerUsers.$inferSelect): PartnerSessionUser => ({
  id: `partner:${row.id}`,
  kind: "partner",
  partnerUserId: row.id,
  email: row.email,
  name: row.name,
});

// Partner keys share the throttle table with drivers; "account:partner:" never collides with a
// driver's "account:<environment>:" key, and the address key is the same on purpose (one guesser).
function partnerKeys(email: string, address: string): ThrottleKey[] {
  return [
    { key: `account:partner:${email}`, policy: ACCOUNT_POLICY },
    { key: `address:${address}`, policy: ADDRESS_POLICY },
  ];
}

let dummyHash: Promise<string> | undefined;

// Same shape as the driver sign-in (server/surfaces/driver/credentials.ts): counted before the check,
// forgiven on success, and an unknown e-mail costs the same argon2 verification.
export async function signInPartner(raw: unknown, address: string): Promise<PartnerSessionUser> {
  const parsed = partnerSignInInput.safeParse(raw);
  if (!parsed.success) throw new SignInRefused({ kind: "invalid_credentials", waitSeconds: 0 });
  const { email, password } = parsed.data;
  const keys = partnerKeys(email, address);
  const attempt = await beginAttempt(keys);
  if (!attempt.allowed) throw new SignInRefused({ kind: "throttled", retryAfterSeconds: attempt.retryAfterSeconds });
  const [row] = await db().select().from(partnerUsers).where(eq(partnerUsers.email, email));
  const matches = row
    ? await verifyPassword(row.passwordHash, password)
    : await verifyPassword(await (dummyHash ??= hashPassword("no-such-partner")), password).then(() => false);
  if (!row || !matches)
    throw new SignInRefused({ kind: "invalid_credentials", waitSeconds: attempt.waitIfFailedSeconds });
  await forgiveAttempt(keys);
  return sessionUser(row);
}

// A sign-up signs the new partner in at once, with no e-mail to confirm, so a taken address cannot
// be answered like a fresh one (that would sign a stranger in or fake a session): it is told, on
// its field. What keeps that from testing a list of addresses is the order: input checked (free),
// then one registration taken from the address's bucket, then the hash and the insert, so a taken
// address costs the same bucket and the same argon2 time as a fresh one, and nothing past the
// bucket is looked up at all (docs/console.md#partner-accounts).
export async function signUpPartner(raw: unknown, address: string): Promise<PartnerSessionUser> {
  const parsed = partnerSignUpInput.safeParse(raw);
  if (!parsed.success) {
    throw new SignInRefused({
      kind: "fields",
      fieldErrors: parsed.error.issues.map((i) => ({ fieldName: String(i.path[0] ?? "email"), message: i.message })),
    });
  }
  await admitRegistration(address);
  const passwordHash = await hashPassword(parsed.data.password);
  try {
    const [row] = await db()
      .insert(partnerUsers)
      .values({ email: parsed.data.email, name: parsed.data.name, passwordHash })
      .returning();
    return sessionUser(row!);
  } catch (error) {
    if (uniqueViolation(error) === "partner_users_email_key")
      throw new SignInRefused({
        kind: "fields",
        fieldErrors: [{ fieldName: "email", message: "An account with this e-mail already exists. Sign in instead." }],
      });
    throw error;
  }
}

export async function findPartnerUser(id: number) {
  const [row] = await db()
    .select({ id: partnerUsers.id, email: partnerUsers.email, name: partnerUsers.name })
    .from(partnerUsers)
    .where(eq(partnerUsers.id, id));
  return row ?? null;
}

/** For the demo seed: a partner with a known password (idempotent). */
export async function ensurePartnerUser({
  email,
  name,
  password,
}: {
  email: string;
  name: string;
  password: string;
}): Promise<number> {
  const [existing] = await db().select({ id: partnerUsers.id }).from(partnerUsers).where(eq(partnerUsers.email, email));
  if (existing) return existing.id;
  const [row] = await db()
    .insert(partnerUsers)
    .values({ email, name, passwordHash: await hashPassword(password) })
    .returning({ id: partnerUsers.id });
  return row!.id;
}
