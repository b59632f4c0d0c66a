import { db } from "@/db/client";
import { logger } from "@/server/platform/log";
import { touchGrantUse } from "./last-use-queries";
import type { Principal } from "./principal";
import { createUseThrottle } from "./use-throttle";

// "Last used" on the driver's connected-apps page: when the API last accepted one of the app's
// tokens for the account. Every API call looks its token up (bearer.ts), and ingest makes that a
// hot path, so the stamp stays out of the lookup's statement and off the request's way: at most
// once a minute per grant and process, a conditional UPDATE is sent and not waited for (the
// response does not depend on it; a failure is logged, never answered). The UPDATE's own
// condition keeps the row to one write a minute however many processes serve the API.

const MINUTE = 60_000;
const throttle = createUseThrottle({ intervalMs: MINUTE, limit: 50_000 });

export function noteTokenUse(principal: Principal): void {
  if (principal.kind === "user") noteGrantUse({ accountId: principal.accountId, appId: principal.appId });
}

/** The driver's grant to the app was used just now (a request, or an open stream's re-check). */
export function noteGrantUse(grant: { accountId: number; appId: number }): void {
  if (!throttle.due(`${grant.accountId}:${grant.appId}`, Date.now())) return;
  touchGrantUse(db(), grant).catch((error: unknown) =>
    logger.error({ err: error }, "could not record an app's last use of its access"),
  );
}
