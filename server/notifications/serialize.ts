import type { notifications } from "@/db/schema";
import { formatDateTime } from "@/common/http/datetime";
import { isAppEvent } from "./app-events";
import type { NotificationWire } from "@/common/notifications/catalog";
import type { LocationPrecision } from "@/common/oauth/grant-scope";
import { positionAt } from "@/common/oauth/location-precision";

export type NotificationRow = typeof notifications.$inferSelect;

type Waypoint = { timestamp: string; latitude: number; longitude: number };

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
// `precision`: the app's grant for the account (precision.ts); recordedWaypoint follows it, the one
// place for every notification body (reads, webhooks, e-mails, the event feed).
export function serializeNotification(
  row: NotificationRow,
  { delivered = false, precision }: { delivered?: boolean; precision: LocationPrecision },
): NotificationWire {
  const body = row.body as NotificationBody;
  const { minimumTime, notificationPeriod, creatorClientId, ...recorded } = body;
  if ("recordedWaypoint" in recorded)
    recorded.recordedWaypoint = positionAt(recorded.recordedWaypoint as Waypoint | null, precision);
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
export function serializeEventBody(row: NotificationRow, { precision }: { precision: LocationPrecision }) {
  return isAppEvent(row.type)
    ? serializeAppEvent(row, row.body as NotificationBody)
    : serializeNotification(row, { delivered: true, precision });
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
