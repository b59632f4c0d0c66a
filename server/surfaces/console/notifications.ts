import { and, count, desc, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { db } from "@/db/client";
import { notifications, type Environment } from "@/db/schema";
import { serializeNotification } from "@/server/notifications/serialize";
import { precisionsOf } from "@/server/notifications/precision";
import { EVENT_TYPE_NAMES } from "@/common/subscriptions/event-types";
import { LOCAL_DATE_TIME_MESSAGE, parseLocalDateTime } from "@/common/http/datetime";
import { notOwned } from "./errors";
import { consolePrincipal } from "./principal";

export const NOTIFICATION_PAGE_SIZE = 25;

export const DELIVERY_STATES = ["PENDING", "DELIVERED", "FAILED"] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

// A notification's delivery state, from its notification_deliveries rows: PENDING while any is
// still queued, else FAILED if any failed, else DELIVERED; null when it had no delivery. The outer
// column is spelled out: drizzle leaves a single-table select's columns unqualified, and a bare
// "id" inside the subquery would be notification_deliveries.id.
const deliveryState = sql<DeliveryState | null>`(select case when bool_or(nd.status = 'PENDING')
  then 'PENDING' when bool_or(nd.status = 'FAILED') then 'FAILED' when count(*) > 0 then 'DELIVERED'
  end from notification_deliveries nd where nd.notification_id = notifications.id)`;

// The list's filters, from the page's query string; anything unreadable is not applied (a filter
// form never makes a page fail), and the page says which (unappliedFilters).
const localTime = z.string().refine((t) => parseLocalDateTime(t) !== null);

export const notificationFilters = z.object({
  vehicle: z
    .string()
    .regex(/^\d{1,10}$/)
    .transform(Number)
    .optional()
    .catch(undefined),
  subscription: z
    .string()
    .regex(/^\d{1,10}$/)
    .transform(Number)
    .optional()
    .catch(undefined),
  type: z
    .string()
    .transform((t) => t.toUpperCase())
    .pipe(z.enum(EVENT_TYPE_NAMES as [string, ...string[]]))
    .optional()
    .catch(undefined),
  from: localTime.optional().catch(undefined),
  to: localTime.optional().catch(undefined),
  status: z
    .string()
    .transform((t) => t.toUpperCase())
    .pipe(z.enum(DELIVERY_STATES))
    .optional()
    .catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).default(1).catch(1),
});
export type NotificationFilters = z.output<typeof notificationFilters>;

// `from`/`to` come from <input type="datetime-local">: read as UTC, as the page says.
const utc = (local: string) => parseLocalDateTime(local)!;

const FILTER_LABELS = { from: "From (UTC)", to: "To (UTC)" } as const;

/** The time filters given but not applied, each with its label and why, for the page to say. */
export function unappliedFilters(raw: Record<"from" | "to", string | undefined>, filters: NotificationFilters) {
  return (["from", "to"] as const)
    .filter((key) => raw[key]?.trim() && filters[key] === undefined)
    .map((key) => ({ field: key, label: FILTER_LABELS[key], message: LOCAL_DATE_TIME_MESSAGE }));
}

export async function listAppNotifications(
  partnerUserId: number,
  appId: number,
  environment: Environment,
  filters: NotificationFilters,
) {
  await consolePrincipal(partnerUserId, appId, environment);
  const conditions: (SQL | undefined)[] = [
    eq(notifications.appId, appId),
    eq(notifications.environment, environment),
    filters.vehicle !== undefined ? eq(notifications.vehicleId, filters.vehicle) : undefined,
    filters.subscription !== undefined ? eq(notifications.subscriptionId, filters.subscription) : undefined,
    filters.type ? eq(notifications.type, filters.type) : undefined,
    filters.from ? gte(notifications.eventAt, utc(filters.from)) : undefined,
    filters.to ? lt(notifications.eventAt, utc(filters.to)) : undefined,
    filters.status ? eq(deliveryState, filters.status) : undefined,
  ];
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    db()
      .select({ row: notifications, deliveryState })
      .from(notifications)
      .where(where)
      .orderBy(desc(notifications.eventAt), desc(notifications.id))
      .limit(NOTIFICATION_PAGE_SIZE)
      .offset((filters.page - 1) * NOTIFICATION_PAGE_SIZE),
    db().select({ n: count() }).from(notifications).where(where),
  ]);
  // The partner sees what the app sees: each account's grant decides the position's precision.
  const precisionOf = await precisionsOf(rows.map((r) => r.row));
  return {
    items: rows.map((r) => ({
      row: r.row,
      deliveryState: r.deliveryState,
      body: serializeNotification(r.row, { precision: precisionOf(r.row) }),
    })),
    total: total?.n ?? 0,
  };
}

export async function appNotification(partnerUserId: number, appId: number, id: number) {
  const [row] = await db()
    .select()
    .from(notifications)
    .where(and(eq(notifications.id, id), eq(notifications.appId, appId)));
  if (!row) throw notOwned("notification");
  await consolePrincipal(partnerUserId, appId, row.environment);
  return { row, body: serializeNotification(row, { precision: (await precisionsOf([row]))(row) }) };
}
