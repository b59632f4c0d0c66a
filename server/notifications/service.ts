import { db } from "@/db/client";
import { notFound, validationError } from "@/common/http/errors";
import type { Page } from "@/common/http/paging";
import type { Principal } from "@/server/api-auth/principal";
import { criteriaOf } from "@/server/subscriptions/criteria";
import type { EventType } from "@/common/subscriptions/event-types";
import { findSubscriptionRow, type Target } from "@/server/subscriptions/queries";
import { resolveTarget, type Prefix } from "@/server/subscriptions/service";
import { recordedValues } from "./conditions";
import {
  findNotificationRow,
  insertNotificationRow,
  listNotificationRows,
  queueDeliveries,
  type NotificationFilter,
} from "./queries";
import { precisionsOf } from "./precision";
import { serializeNotification } from "./serialize";

// Notification reads (docs/subscriptions.md#notifications): under a vehicle, an account, or one of the caller's
// subscriptions; always only the calling app's notifications.

export type NotificationScope = { prefix: Prefix; subscriptionId?: number; type?: EventType };

async function filterFor(principal: Principal, scope: NotificationScope): Promise<NotificationFilter> {
  const target = await resolveTarget(principal, scope.prefix);
  const filter: NotificationFilter = { environment: principal.environment, appId: principal.appId, type: scope.type };
  if (target.scope === "VEHICLE") filter.vehicleId = target.vehicleId;
  if (target.scope === "ACCOUNT") filter.accountId = target.accountId;
  if (scope.subscriptionId !== undefined) {
    const sub = await findSubscriptionRow(db(), {
      owner: { environment: principal.environment, appId: principal.appId },
      target,
      id: scope.subscriptionId,
    });
    if (!sub) throw notFound("subscription");
    filter.subscriptionId = sub.id;
  }
  return filter;
}

export async function listNotifications(
  principal: Principal,
  scope: NotificationScope,
  page: Page,
  order: "asc" | "desc",
) {
  const { rows, total } = await listNotificationRows(db(), { filter: await filterFor(principal, scope), page, order });
  const precisionOf = await precisionsOf(rows);
  return { items: rows.map((r) => serializeNotification(r, { precision: precisionOf(r) })), total };
}

export async function getNotification(principal: Principal, scope: NotificationScope, id: number) {
  const row = await findNotificationRow(db(), { filter: await filterFor(principal, scope), id });
  if (!row) throw notFound("notification");
  return serializeNotification(row, { precision: (await precisionsOf([row]))(row) });
}

// The recorded members a type's notification carries, all null: the shape a receiver must parse.
// The data events' members are those a real notification records (recordedValues, without a set).
function nullRecorded(type: EventType, criteria: ReturnType<typeof criteriaOf>): Record<string, unknown> {
  switch (type) {
    case "AUTHORIZATIONSTATUS":
      return { authorizationStatus: null };
    case "VEHICLECREATED":
    case "VEHICLEDELETED":
      return {};
    default:
      return recordedValues(type, criteria, null);
  }
}

/**
 * GET test/vehicle/{vehicleId}/eventSubscription/{subId} (docs/subscriptions.md): a notification of the
 * subscription's type with null recorded values, sent through every active delivery like a real
 * one. It is marked `test`, and never counts for minimumTime or ONETIME.
 */
export async function sendTestNotification(principal: Principal, vehicleRef: string, subscriptionId: number) {
  const target = (await resolveTarget(principal, { kind: "vehicle", ref: vehicleRef })) as Extract<
    Target,
    { scope: "VEHICLE" }
  >;
  const owner = { environment: principal.environment, appId: principal.appId };
  // The vehicle's own subscription, or one of its account's that applies to it.
  const sub =
    (await findSubscriptionRow(db(), { owner, target, id: subscriptionId })) ??
    (await findSubscriptionRow(db(), {
      owner,
      target: { scope: "ACCOUNT", accountId: target.accountId },
      id: subscriptionId,
    }));
  if (!sub) throw notFound("subscription");
  if (sub.deletedAt) throw validationError([], "This subscription was deleted; it sends no notifications.");

  const row = await db().transaction(async (tx) => {
    const inserted = await insertNotificationRow(tx, {
      environment: principal.environment,
      subscriptionId: sub.id,
      appId: sub.appId,
      accountId: target.accountId,
      vehicleId: target.vehicleId,
      type: sub.type,
      eventAt: new Date(),
      test: true,
      body: {
        minimumTime: sub.minimumTime,
        notificationPeriod: sub.notificationPeriod,
        creatorClientId: sub.clientId,
        ...nullRecorded(sub.type as EventType, criteriaOf(sub.criteria)),
      },
    });
    await queueDeliveries(tx, inserted.id, sub.id);
    return inserted;
  });
  return serializeNotification(row, { precision: (await precisionsOf([row]))(row) });
}
