import type { subscriptionDeliveries, subscriptions } from "@/db/schema";
import { formatDateTime } from "@/common/http/datetime";
import { criteriaOf } from "./criteria";

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type DeliveryRow = typeof subscriptionDeliveries.$inferSelect;

// A delivery shows the fields of its kind (docs/subscriptions.md#deliveries), nulls included for a stable shape.
function serializeDelivery(d: DeliveryRow) {
  const status = { active: d.active, deactivationReason: d.deactivationReason };
  if (d.type === "EMAIL") {
    return {
      id: d.id,
      type: d.type,
      recipient: d.recipient,
      subscriberSubject: d.subscriberSubject,
      subscriberContent: d.subscriberContent,
      ...status,
    };
  }
  return {
    id: d.id,
    type: d.type,
    postUrl: d.postUrl,
    postHeaders: d.postHeaders as Record<string, string> | null,
    oauth2: d.oauth2 as Record<string, string> | null,
    ...status,
  };
}

// A subscription as the API returns it (docs/subscriptions.md): its own fields, the legacy postUrl and
// postHeaders as they were sent (null when the deliveries array was used), the deliveries, and
// the criteria of its type beside them.
export function serializeSubscription(row: SubscriptionRow, deliveries: DeliveryRow[]) {
  const created = formatDateTime(row.createdAt);
  return {
    id: row.id,
    _type: row.type,
    _timestamp: created,
    creationTimestamp: created,
    deletionTimestamp: row.deletedAt ? formatDateTime(row.deletedAt) : null,
    minimumTime: row.minimumTime,
    notificationPeriod: row.notificationPeriod,
    creatorClientId: row.clientId,
    vehicleId: row.vehicleId,
    accountId: row.accountId,
    ...criteriaOf(row.criteria),
    postUrl: row.postUrl,
    postHeaders: row.postHeaders as Record<string, string> | null,
    deliveries: deliveries.map(serializeDelivery),
  };
}
