import type { AccessRule } from "@/common/access/categories";
import type { Principal } from "@/server/api-auth/principal";
import type { NotificationRow } from "@/server/notifications/serialize";
import { env } from "@/server/platform/env";
import { ensureFlushing } from "./flush";
import { noteAccess } from "./recorder";
import { notificationCategory } from "./rules";

// The two ways data reaches an app, noted in the access log: an API answer (withApi, by the
// operation's rule) and a delivered notification (the delivery worker). ACCESS_LOG=off turns both
// into nothing (bench:api measures the log's cost that way).

/** The items of one answer (an empty list carried nothing). */
export function noteApiAnswer(rule: AccessRule, principal: Principal, items: unknown[]): void {
  if (!env().accessLog || items.length === 0) return;
  noteAccess({
    appId: principal.appId,
    accountId: principal.kind === "user" ? principal.accountId : null,
    marks: items.map(rule),
  });
  ensureFlushing();
}

/** Notifications the worker delivered (a webhook answered 2xx, or an e-mail handed over). */
export function noteDelivered(delivered: NotificationRow[], at = Date.now()): void {
  if (!env().accessLog || delivered.length === 0) return;
  for (const n of delivered)
    noteAccess({
      appId: n.appId,
      accountId: null,
      marks: [{ accountId: n.accountId, vehicleId: n.vehicleId, mask: notificationCategory(n.type) }],
      at,
    });
  ensureFlushing();
}
