import type { DeliveryNetwork } from "./https-client";
import { oauth2Schema, refreshAccessToken, type OAuth2Map, type RefreshResult } from "./oauth2-refresh";
import { deactivateLocked, updateOAuth2Tokens, withLockedCredentials } from "./queries";

// One token refresh per delivery at a time (docs/delivery.md#oauth-20-refresh). A worker sends up
// to 100 notifications at once, so a token that expired makes many of them get 401 together; a
// receiver that rotates refresh tokens accepts each refresh token once, so if each of them
// refreshed, all but the first would fail and the delivery would be deactivated. Instead:
// - in one process, the sends of one delivery queue here, so a process holds at most one
//   database connection per delivery for this;
// - across processes, the delivery's row lock (queries.ts withLockedCredentials) orders them.
// Under the lock each compares the stored access token with the one the receiver refused: if it
// changed, someone refreshed meanwhile and it is taken as it is; otherwise this one refreshes and
// stores the new pair before the lock is released. A failed refresh deactivates the delivery under
// the lock, so the ones waiting do not spend the same refresh token again.

export type SharedRefresh =
  | { kind: "refreshed"; oauth2: OAuth2Map; refresh: Extract<RefreshResult, { ok: true }> }
  | { kind: "reused"; oauth2: OAuth2Map }
  | { kind: "failed"; reason: string; refresh: Extract<RefreshResult, { ok: false }> | null };

const queues = new Map<number, Promise<unknown>>();

export function refreshOnce(input: {
  deliveryId: number;
  refusedAccessToken: string;
  network: DeliveryNetwork;
  now: () => Date;
}): Promise<SharedRefresh> {
  const previous = queues.get(input.deliveryId) ?? Promise.resolve();
  const turn = previous.then(() => refreshUnderLock(input));
  const settled = turn.catch(() => {});
  queues.set(input.deliveryId, settled);
  void settled.then(() => {
    if (queues.get(input.deliveryId) === settled) queues.delete(input.deliveryId);
  });
  return turn;
}

function refreshUnderLock({
  deliveryId,
  refusedAccessToken,
  network,
  now,
}: {
  deliveryId: number;
  refusedAccessToken: string;
  network: DeliveryNetwork;
  now: () => Date;
}): Promise<SharedRefresh> {
  return withLockedCredentials(deliveryId, async (stored, tx): Promise<SharedRefresh> => {
    if (!stored) return { kind: "failed", reason: `Delivery removed at ${now().toISOString()}`, refresh: null };
    if (!stored.active)
      return {
        kind: "failed",
        reason: stored.deactivationReason ?? `Delivery deactivated at ${now().toISOString()}`,
        refresh: null,
      };
    const current = oauth2Schema.safeParse(stored.oauth2);
    if (!current.success)
      return { kind: "failed", reason: `oauth2 map incomplete at ${now().toISOString()}`, refresh: null };
    if (current.data.access_token !== refusedAccessToken) return { kind: "reused", oauth2: current.data };

    const refresh = await refreshAccessToken(current.data, network);
    if (!refresh.ok) {
      const at = now();
      const reason = `OAuth 2.0 token refresh failed at ${at.toISOString()}: ${refresh.reason}`;
      await deactivateLocked(tx, { deliveryId, reason, at });
      return { kind: "failed", reason, refresh };
    }
    const oauth2 = { ...current.data, ...refresh.tokens };
    // Keys of the stored map the schema does not name stay as they were.
    await updateOAuth2Tokens(tx, {
      deliveryId,
      oauth2: { ...(stored.oauth2 as Record<string, unknown>), ...refresh.tokens },
    });
    return { kind: "refreshed", oauth2, refresh };
  });
}
