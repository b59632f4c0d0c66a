import { accountScope } from "@/server/accounts/service";
import type { Bearer } from "@/server/oauth/bearer";
import type { Principal } from "@/server/oauth/principal";
import type { IngestRead } from "./ingest-statements";

// What ingest knew of a vehicle after its last write for a caller: its version, state and open
// trip, and who the caller was. A device posts in order, a data set every few seconds, so the
// next post for the vehicle can skip both the token lookup and the read and go straight to the
// write. That write checks what they would have told: the token still works, the vehicle row is
// still this version (every ingest and every edit of the vehicle changes it), the caller still
// sees the vehicle, the same subscriptions see it (liveSubscriptionsVersion; their states are
// the ones this ingest wrote), and every data set is newer than the vehicle's newest (so none
// can be a duplicate). If anything changed it writes nothing, and the ingest looks up, reads and
// writes as usual: an entry is only ever a hint. Per process and bounded; the oldest entry goes
// first.

export type RecentVehicle = { principal: Principal; read: IngestRead };

const LIMIT = 10_000;
const entries = new Map<string, RecentVehicle>();

/** A token by its hash; a principal without one (the simulator's) by what it may see. */
function keyOf(caller: Principal | Bearer, ref: string): string {
  if ("hash" in caller) return `${caller.environment} token ${caller.hash} ${ref}`;
  const scope = accountScope(caller);
  return `${scope.environment} ${scope.accountId ?? `app ${scope.appId}`} ${ref}`;
}

export function recentVehicle(caller: Principal | Bearer, ref: string): RecentVehicle | undefined {
  return entries.get(keyOf(caller, ref));
}

/** recent: what the caller's last ingest left; null forgets the entry. */
export function rememberVehicle(caller: Principal | Bearer, ref: string, recent: RecentVehicle | null): void {
  const key = keyOf(caller, ref);
  entries.delete(key);
  if (!recent) return;
  entries.set(key, recent);
  if (entries.size > LIMIT) entries.delete(entries.keys().next().value!);
}
