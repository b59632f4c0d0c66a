import { and, eq } from "drizzle-orm";
import { db } from "@/db/client";
import { subscriptions, type Environment } from "@/db/schema";
import { resendFailedSince, resendNotificationDeliveries, type Resent } from "@/server/delivery/resend";
import { env } from "@/server/platform/env";
import { sendTestNotification } from "@/server/notifications/service";
import { findOwnedApp } from "./app-queries";
import { attemptsOf, deliveriesOfNotification, firstVehicleOf, OUTBOX_PAGE_SIZE, outboxOf } from "./delivery-queries";
import { ApiError } from "@/common/http/errors";
import { notOwned } from "./errors";
import { appNotification } from "./notifications";
import { consolePrincipal } from "./principal";

// What happened to a notification on its way out (every attempt of every delivery), sending it
// again, sending a test notification, and the e-mail outbox. Each function checks ownership first.

export async function notificationDeliveryLog(partnerUserId: number, appId: number, notificationId: number) {
  const { row } = await appNotification(partnerUserId, appId, notificationId);
  const deliveries = await deliveriesOfNotification(db(), { notificationId: row.id });
  const attempts = await attemptsOf(db(), { notificationDeliveryIds: deliveries.map((d) => d.id) });
  return deliveries.map((d) => ({
    ...d,
    attempts: attempts.filter((a) => a.notificationDeliveryId === d.id),
    failures: d.attempts ?? 0,
  }));
}

export type DeliveryLog = Awaited<ReturnType<typeof notificationDeliveryLog>>;

export async function resendNotification(
  partnerUserId: number,
  appId: number,
  notificationId: number,
): Promise<Resent> {
  const { row } = await appNotification(partnerUserId, appId, notificationId);
  const resent = await resendNotificationDeliveries({ notificationId: row.id });
  if (resent.requeued === 0) {
    throw new ApiError(
      "CANNOTPERSIST",
      resent.skippedInactive > 0
        ? "Its deliveries are deactivated: reactivate them on the subscriptions page first."
        : "Nothing to resend: every delivery of this notification is still queued, or it has none.",
    );
  }
  return resent;
}

export async function resendFailed(
  partnerUserId: number,
  appId: number,
  environment: Environment,
  since: Date,
): Promise<Resent> {
  await consolePrincipal(partnerUserId, appId, environment);
  return resendFailedSince({ appId, environment, since });
}

/** GET test/vehicle/{vehicleId}/eventSubscription/{id} (docs/subscriptions.md), for a subscription of the partner's app. */
export async function sendConsoleTestNotification(
  partnerUserId: number,
  appId: number,
  subscriptionId: number,
): Promise<{ notificationId: number }> {
  const [sub] = await db()
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.id, subscriptionId), eq(subscriptions.appId, appId)));
  if (!sub) throw notOwned("subscription");
  const principal = await consolePrincipal(partnerUserId, appId, sub.environment);
  const vehicleId =
    sub.scope === "VEHICLE"
      ? sub.vehicleId
      : sub.scope === "ACCOUNT" && sub.accountId !== null
        ? await firstVehicleOf(db(), { accountId: sub.accountId })
        : null;
  if (vehicleId === null) {
    throw new ApiError(
      "CANNOTPERSIST",
      sub.scope === "SYSTEM"
        ? "A test notification is sent for a vehicle; system subscriptions have none."
        : "The account has no vehicle to send a test notification for.",
    );
  }
  const sent = await sendTestNotification(principal, String(vehicleId), sub.id);
  return { notificationId: sent.id };
}

/** The app's kept e-mails, newest first, at most `pageSize` of them. */
export async function appOutbox(partnerUserId: number, appId: number) {
  if (!(await findOwnedApp(db(), { partnerUserId, appId }))) throw notOwned();
  return {
    smtpConfigured: Boolean(env().SMTP_URL),
    mails: await outboxOf(db(), { appId }),
    pageSize: OUTBOX_PAGE_SIZE,
  };
}
