import type { AccountScope } from "@/server/accounts/queries";
import type { IngestRead } from "./ingest-statements";

// What ingest knew of a vehicle after its last write for a caller: its version, state and open
// trip. A device posts in order, a data set every few seconds, so the next post for the vehicle
// can skip the read and go straight to the write. That write checks what the read would have
// told: the vehicle row is still this version (every ingest and every edit of the vehicle
// changes it), the caller still sees the vehicle, no subscription sees it, and every data set is
// newer than the vehicle's newest (so none can be a duplicate). If anything changed it writes
// nothing, and the ingest reads and writes as usual: an entry is only ever a hint.
//
// Only vehicles without subscriptions are kept: subscriptions and their states change in ways
// the vehicle's version does not show. Per process and bounded; the oldest entry goes first.

const LIMIT = 10_000;
const entries = new Map<string, IngestRead>();

const keyOf = (scope: AccountScope, ref: string) => `${scope.environment} ${scope.accountId ?? `app ${scope.appId}`} ${ref}`;

export function recentVehicle(scope: AccountScope, ref: string): IngestRead | undefined {
  return entries.get(keyOf(scope, ref));
}

export function rememberVehicle(scope: AccountScope, ref: string, read: IngestRead | null): void {
  const key = keyOf(scope, ref);
  entries.delete(key);
  if (!read || read.subscriptions.length > 0) return;
  entries.set(key, read);
  if (entries.size > LIMIT) entries.delete(entries.keys().next().value!);
}
