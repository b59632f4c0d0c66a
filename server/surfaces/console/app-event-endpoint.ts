import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { db } from "@/db/client";
import { environments, subscriptionDeliveries, subscriptions, type Environment } from "@/db/schema";
import { validationError, type FieldError } from "@/common/http/errors";
import { CONTROL_CHARACTER, CONTROL_CHARACTER_MESSAGE } from "@/common/http/fields";
import { parseAllowedHosts, checkTarget, TargetRefused } from "@/server/delivery/ssrf";
import { inboxToken } from "@/server/inbox/address";
import { inboxTargetErrors } from "@/server/inbox/targets";
import { ensureAppEventSubscriptions } from "@/server/notifications/app-events";
import { env } from "@/server/platform/env";
import { getOwnedApp } from "./apps";
import { consolePrincipal } from "./principal";

// The app-event endpoint (docs/console.md#app-events): per app and environment, the HTTPS URL that
// receives the app's ACCESSREVOKED and ACCOUNTDELETED events. It is the one HTTP_POST delivery of
// the app's hidden APP-scope subscription (server/notifications/app-events.ts), so the worker
// delivers, retries and signs it like any webhook. Checked like a subscription's postUrl, plus the
// SSRF guard's syntactic gate (server/delivery/ssrf.ts) at once, so a loopback, private or
// reserved target is a 400 here rather than a failed attempt later. Empty: no endpoint (the events
// stay in the app's event feed).

export const appEventEndpointForm = z.object({
  environment: z.enum(environments, "Choose sandbox or production."),
  url: z.string().max(4096).default(""),
});

const urlError = (errorDisplay: string): FieldError => ({ fieldName: "url", errorCode: "INVALID", errorDisplay });

async function endpointErrors(url: string, environment: Environment, appId: number): Promise<FieldError[]> {
  if (url.length > 2048) return [urlError("Must be at most 2048 characters.")];
  if (CONTROL_CHARACTER.test(url)) return [urlError(CONTROL_CHARACTER_MESSAGE)];
  if (inboxToken(url) !== null) return inboxTargetErrors({ environment, appId }, [{ field: "url", url }]);
  try {
    const parsed = checkTarget(url, { allowedHosts: parseAllowedHosts(env().DELIVERY_ALLOWED_HOSTS) });
    if (parsed.hash) return [urlError("Must not have a #fragment.")];
  } catch (error) {
    if (error instanceof TargetRefused) return [urlError(`This URL cannot receive events: ${error.message}.`)];
    throw error;
  }
  return [];
}

export async function setAppEventEndpoint(
  partnerUserId: number,
  appId: number,
  input: z.output<typeof appEventEndpointForm>,
): Promise<void> {
  const { environment } = input;
  await consolePrincipal(partnerUserId, appId, environment);
  const url = input.url.trim();
  if (url !== "") {
    const errors = await endpointErrors(url, environment, appId);
    if (errors.length > 0) throw validationError(errors, "The app-event endpoint was not saved.");
  }
  await db().transaction(async (tx) => {
    await ensureAppEventSubscriptions(tx, { environment, appIds: [appId] });
    const [sub] = await tx
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(
        and(eq(subscriptions.appId, appId), eq(subscriptions.environment, environment), eq(subscriptions.scope, "APP")),
      )
      .for("no key update");
    if (!sub) return;
    if (url === "") {
      await tx.delete(subscriptionDeliveries).where(eq(subscriptionDeliveries.subscriptionId, sub.id));
      return;
    }
    const changed = await tx
      .update(subscriptionDeliveries)
      .set({ postUrl: url, active: true, deactivationReason: null, deactivatedAt: null })
      .where(eq(subscriptionDeliveries.subscriptionId, sub.id))
      .returning({ id: subscriptionDeliveries.id });
    if (changed.length === 0)
      await tx
        .insert(subscriptionDeliveries)
        .values({ subscriptionId: sub.id, position: 0, type: "HTTP_POST", postUrl: url });
  });
}

/** An environment's app-event endpoint as the app page shows it; null where none is set. */
export type AppEventEndpoint = { url: string; active: boolean; deactivationReason: string | null };

/** The app's endpoint per environment (the partner's own app only: another's is a 404). */
export async function appEventEndpoints(
  partnerUserId: number,
  appId: number,
): Promise<Record<Environment, AppEventEndpoint | null>> {
  await getOwnedApp(partnerUserId, appId);
  const rows = await db()
    .select({
      environment: subscriptions.environment,
      url: subscriptionDeliveries.postUrl,
      active: subscriptionDeliveries.active,
      deactivationReason: subscriptionDeliveries.deactivationReason,
    })
    .from(subscriptions)
    .innerJoin(subscriptionDeliveries, eq(subscriptionDeliveries.subscriptionId, subscriptions.id))
    .where(and(eq(subscriptions.appId, appId), eq(subscriptions.scope, "APP")));
  const of = (environment: Environment): AppEventEndpoint | null => {
    const row = rows.find((r) => r.environment === environment && r.url);
    return row ? { url: row.url!, active: row.active, deactivationReason: row.deactivationReason } : null;
  };
  return { sandbox: of("sandbox"), production: of("production") };
}
