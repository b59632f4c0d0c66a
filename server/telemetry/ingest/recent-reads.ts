import type { AccountScope } from "@/server/accounts/queries";
import type { IngestRead } from "./read";

// What ingest knew of a vehicle after its last write: its version, state, open trip and the
// subscriptions that see it with their states. A device posts in order, a data set every few
// seconds, so the next post for the vehicle can skip the read and go straight to the write. That
// write checks what the read would have told: the vehicle row is still this version (every ingest
// and every edit of the vehicle changes it), the caller still sees the vehicle, the same
// subscriptions and the driver's alert rules see it (rulesVersion; their states and episodes are the
// ones this ingest wrote),
// and every data set is newer than the vehicle's newest (so none can be a duplicate). If anything
// changed it writes nothing, and the ingest reads and writes as usual: an entry is only ever a
// hint. Keyed by what the caller may see (the read depends on nothing else) and the vehicle as
// the caller named it; per process and bounded, the oldest entry goes first.

const LIMIT = 10_000;
const entries = new Map<string, IngestRead>();

const keyOf = (scope: AccountScope, ref: string) =>
  `${scope.environment} ${scope.accountId ?? `app ${scope.appId}`} ${ref}`;

/** What the last ingest for this vehicle, by a caller who sees what this one sees, left. */
export function recentRead(scope: AccountScope, ref: string): IngestRead | undefined {
  return entries.get(keyOf(scope, ref));
}

/** read: what the ingest left; null forgets the entry. */
export function rememberRead(scope: AccountScope, ref: string, read: IngestRead | null): void {
  const key = keyOf(scope, ref);
  entries.delete(key);
  if (!read) return;
  entries.set(key, read);
  if (entries.size > LIMIT) entries.delete(entries.keys().next().value!);
}
