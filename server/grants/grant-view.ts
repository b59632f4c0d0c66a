import { db } from "@/db/client";
import { ApiError } from "@/common/http/errors";
import { grantScopesOf } from "./grant-queries";
import { FULL_GRANT, type GrantScope } from "@/common/oauth/grant-scope";
import type { Principal } from "@/server/api-auth/principal";

// What the caller may see of an account's data (docs/oauth.md#scopes). A user token carries its
// grant, read with the token. A client-credentials token acts for the app across the accounts it
// reaches, and sees each account's data as that account's driver granted it: no app-level token
// sees more than a user token of the same account would. The partner console acts as the app
// (`via: "console"`), so it too sees each account as granted, as does any other caller not named
// here. The simulator's posts and the demo's set-up act for the app that started them with no grant
// to read through: FULL_GRANT; the driver site acts as the owner (a user principal with FULL_GRANT).

/** Nothing at all: what a grant that cannot be found (revoked a moment ago) allows. */
const NOTHING: GrantScope = { location: "none", data: false, account: false };

export async function grantsFor(
  principal: Principal,
  accountIds: number[],
): Promise<(accountId: number) => GrantScope> {
  if (principal.grant) {
    const grant = principal.grant;
    return () => grant;
  }
  if (principal.via === "simulator" || principal.via === "demo") return () => FULL_GRANT;
  const grants = await grantScopesOf(db(), { appId: principal.appId, accountIds: [...new Set(accountIds)] });
  return (accountId) => grants.get(accountId) ?? NOTHING;
}

export async function grantFor(principal: Principal, accountId: number): Promise<GrantScope> {
  return (await grantsFor(principal, [accountId]))(accountId);
}

/** 403 FORBIDDEN naming the scope the grant lacks (docs/oauth.md#scopes). */
export function requireScope(grant: GrantScope, scope: "data" | "account"): void {
  if (!grant[scope])
    throw new ApiError(
      "FORBIDDEN",
      `This needs the "${scope}" scope, which the driver has not granted this app: ask for it on the authorization page (scope=${scope}).`,
    );
}
