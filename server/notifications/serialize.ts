import type { notifications } from "@/db/schema";
import { formatDateTime } from "@/common/http/datetime";
import { isAppEvent } from "./app-events";
import type { NotificationWire } from "@/common/notifications/catalog";

export type NotificationRow = typeof notifications.$inferSelect;

/**
 * What a notification records besides its ids (docs/subscriptions.md#notifications): the subscription's settings when it
 * fired, and the type's recorded values (recordedWaypoint, ignitionStatus, recordedVoltage, …).
 * Stored as the `body` column, in this shape.
 */
type NotificationBody = {
  minimumTime: number;
  notificationPeriod: string;
  creatorClientId: string;
} & Record<string, unknown>;

// A notification as the API returns it and as HTTP_POST delivers it (docs/subscriptions.md#notifications). The delivered
// body carries httpStatusCode 0; reads show the receiver's last status.
// Its exact shape per type is the event catalog's (common/notifications/catalog.ts).
export function serializeNotification(
  row: NotificationRow,
  { delivered = false }: { delivered?: boolean } = {},
): NotificationWire {
  const body = row.body as NotificationBody;
  const { minimumTime, notificationPeriod, creatorClientId, ...recorded } = body;
  return {
    id: row.id,
    // The event's one id: the webhook-id of its deliveries and the event feed's eventId.
    eventId: String(row.id),
    subscriptionId: row.subscriptionId,
    accountId: row.accountId,
    vehicleId: row.vehicleId,
    dataSetId: row.dataSetId,
    tripId: row.tripId,
    _domain: "wayline" as const,
    _type: row.type,
    _name: row.type,
    _timestamp: formatDateTime(row.eventAt),
    eventTimestamp: formatDateTime(row.createdAt),
    minimumTime,
    notificationPeriod,
    creatorClientId,
    httpStatusCode: delivered ? 0 : row.httpStatusCode,
    ...(row.test ? { test: true as const } : {}),
    ...recorded,
  };
}

/** What a webhook delivers and the feed shows: the notification, or an app event's four fields. */
export function serializeEventBody(row: NotificationRow) {
  return isAppEvent(row.type)
    ? serializeAppEvent(row, row.body as NotificationBody)
    : serializeNotification(row, { delivered: true });
}

// An app event (ACCESSREVOKED, ACCOUNTDELETED: app-events.ts) carries exactly these four fields, on
// the webhook and in the feed (which adds eventId and cursor), and nothing else of the driver's.
function serializeAppEvent(row: NotificationRow, body: NotificationBody) {
  return {
    _type: row.type,
    _timestamp: formatDateTime(row.eventAt),
    accountId: row.accountId,
    clientId: body.creatorClientId,
  };
}
