import { db } from "@/db/client";
import { retryingDeadlocks } from "@/db/errors";
import type { Environment } from "@/db/schema";
import { cancelAccountDeliveries } from "@/server/delivery/cancel";
import { notifyAuthorizationRevoked } from "@/server/notifications/account-events";
import { writeAppEvents } from "@/server/notifications/app-events";
import { expireCodesOfGrant, revokeGrantRow, revokeTokensOfGrant } from "./grant-queries";

export type AppRevocation = {
  environment: Environment;
  accountId: number;
  appId: number;
  revokedAt: Date;
  tokensRevoked: number;
};

// An app's access to an account ends (docs/oauth.md#revocation): the driver revoked it on the
// connected-apps page, or the app revoked one of its tokens for the account at /oauth/revoke. In one
// transaction the grant is marked revoked, every token the app holds for the account is revoked
// (they fail from the next request on: the API looks each token up per request), and its unused
// codes expire. Token issuance holds a share lock on the grant row (server/oauth/repositories.ts), so
// no token can be minted from a code or refresh token in flight. The app's pending deliveries for the
// account leave the queue (server/delivery/cancel.ts: this waits for a worker sending one of them
// right now), so none is attempted once this commits. The app's system-scope AUTHORIZATIONSTATUS
// subscriptions get a REVOKED notification and the app its ACCESSREVOKED app event
// (server/notifications/app-events.ts), on the same transaction, so the revocation and what tells
// the app of it commit together.
//
// The cancel locks the queue's rows in the order every other writer of the queue does
// (docs/delivery.md#lock-order), so a busy delivery worker does not deadlock with it; should
// PostgreSQL still end the transaction to break a deadlock (with some writer not yet in that order),
// it is run again, so that a revocation always commits rather than answering 500.
//
// Returns null when the account did not grant the app access (nothing to revoke).
export async function revokeAppAuthorization(input: {
  environment: Environment;
  accountId: number;
  appId: number;
}): Promise<AppRevocation | null> {
  return retryingDeadlocks(() => revokeOnce(input));
}

async function revokeOnce(input: { environment: Environment; accountId: number; appId: number }) {
  return db().transaction(async (tx): Promise<AppRevocation | null> => {
    const revokedAt = await revokeGrantRow(tx, { accountId: input.accountId, appId: input.appId });
    if (!revokedAt) return null;
    const tokensRevoked = await revokeTokensOfGrant(tx, { accountId: input.accountId, appId: input.appId });
    await expireCodesOfGrant(tx, { accountId: input.accountId, appId: input.appId });
    await cancelAccountDeliveries(tx, { accountId: input.accountId, appId: input.appId });
    await notifyAuthorizationRevoked(tx, {
      environment: input.environment,
      appId: input.appId,
      accountId: input.accountId,
      at: revokedAt,
    });
    await writeAppEvents(tx, {
      environment: input.environment,
      type: "ACCESSREVOKED",
      accountId: input.accountId,
      appIds: [input.appId],
      at: revokedAt,
    });
    return { ...input, revokedAt, tokensRevoked };
  });
}
