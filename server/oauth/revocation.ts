import { db } from "@/db/client";
import type { Environment } from "@/db/schema";
import { notifyAuthorizationRevoked } from "@/server/notifications/account-events";
import { expireCodesOfGrant, revokeGrantRow, revokeTokensOfGrant } from "./grant-queries";

export type AppRevocation = {
  environment: Environment;
  accountId: number;
  appId: number;
  revokedAt: Date;
  tokensRevoked: number;
};

// A driver takes an app's access away (docs/oauth.md): in one transaction the grant is marked
// revoked, every token the app holds for the account is revoked (they fail from the next
// request on), and its unused codes expire. Token issuance holds a share lock on the grant row
// (repositories.ts), so no token can be minted from a code or refresh token in flight.
// The app's system-scope AUTHORIZATIONSTATUS subscriptions get a REVOKED notification, written on
// the same transaction, so the revocation and its notification commit together.
//
// Returns null when the account did not grant the app access (nothing to revoke).
export async function revokeAppAuthorization(input: {
  environment: Environment;
  accountId: number;
  appId: number;
}): Promise<AppRevocation | null> {
  return db().transaction(async (tx) => {
    const revokedAt = await revokeGrantRow(tx, { accountId: input.accountId, appId: input.appId });
    if (!revokedAt) return null;
    const tokensRevoked = await revokeTokensOfGrant(tx, { accountId: input.accountId, appId: input.appId });
    await expireCodesOfGrant(tx, { accountId: input.accountId, appId: input.appId });
    await notifyAuthorizationRevoked(tx, {
      environment: input.environment,
      appId: input.appId,
      accountId: input.accountId,
      at: revokedAt,
    });
    return { ...input, revokedAt, tokensRevoked };
  });
}
