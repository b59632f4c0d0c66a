import { db } from "@/db/client";
import type { GrantScope, LocationPrecision } from "@/common/oauth/grant-scope";
import { findAppName, listActiveGrants } from "./grant-queries";

/** lastUsedAt: when a token of the app for this account was last accepted or issued (grant-queries.ts). */
export type ConnectedApp = {
  appId: number;
  name: string;
  ownerName: string | null;
  how: "created" | "authorized";
  since: Date;
  lastUsedAt: Date | null;
  /** What the driver granted, and the most precise location the app asked for (the choices offered). */
  grant: GrantScope;
  locationAsked: LocationPrecision;
};

/** The apps that have access to an account (the signed-in driver's, on the connected-apps page). */
export async function listConnectedApps({ accountId }: { accountId: number }): Promise<ConnectedApp[]> {
  const rows = await listActiveGrants(db(), { accountId });
  return rows.map((r) => ({
    appId: r.appId,
    name: r.name,
    ownerName: r.ownerName,
    how: r.source,
    since: r.grantedAt,
    lastUsedAt: r.lastUsedAt ?? null,
    grant: { location: r.location, data: r.data, account: r.account },
    locationAsked: r.locationAsked,
  }));
}

export const appName = (appId: number) => findAppName(db(), { appId });
