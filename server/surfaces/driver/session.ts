import { getServerSession } from "next-auth";
import { z } from "zod";
import { db } from "@/db/client";
import { environments } from "@/db/schema";
import { findAccount } from "@/server/accounts/queries";
import { authOptions } from "./auth-options";

const sessionShape = z.object({
  driver: z.object({
    accountId: z.number().int().positive(),
    environment: z.enum(environments),
    username: z.string(),
    name: z.string(),
    sid: z.string().min(16),
  }),
});

export type DriverSession = z.infer<typeof sessionShape>["driver"];

// The signed-in driver, for pages and route handlers, or null. The session cookie is only a
// claim: the account must still exist (a deleted account's cookie signs nobody in), and the name
// shown is the account's current one.
export async function getDriverSession(): Promise<DriverSession | null> {
  const parsed = sessionShape.safeParse(await getServerSession(authOptions()));
  if (!parsed.success) return null;
  const { driver } = parsed.data;
  const account = await findAccount(db(), {
    scope: { environment: driver.environment, accountId: driver.accountId },
    id: driver.accountId,
  });
  if (!account) return null;
  return { ...driver, username: account.username, name: `${account.firstName} ${account.lastName}`.trim() };
}
