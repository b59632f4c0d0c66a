import { db } from "@/db/client";
import type { DriverSession } from "@/server/auth/session";
import { findAppName, listActiveGrants } from "./grant-queries";

export type ConnectedApp = { appId: number; name: string; ownerName: string | null; how: "created" | "authorized"; since: Date; lastTokenAt: Date | null };

/** The apps that have access to the signed-in driver's account. */
export async function listConnectedApps(session: DriverSession): Promise<ConnectedApp[]> {
  const rows = await listActiveGrants(db(), { accountId: session.accountId });
  return rows.map((r) => ({ appId: r.appId, name: r.name, ownerName: r.ownerName, how: r.source, since: r.grantedAt, lastTokenAt: r.lastTokenAt ?? null }));
}

export const appName = (appId: number) => findAppName(db(), { appId });
