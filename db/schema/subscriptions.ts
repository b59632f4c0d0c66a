import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { partnerApps } from "./apps";
import { environmentEnum } from "./environment";
import { vehicles } from "./vehicles";

// Event subscriptions (docs/subscriptions.md). One table for the three scopes: a vehicle subscription names
// its vehicle (and, for lookups, the vehicle's account); an account subscription names only the
// account and applies to every current and future vehicle of it; a system one names neither.
export const subscriptions = pgTable(
  "subscriptions",
  {
    id: serial("id").primaryKey(),
    environment: environmentEnum("environment").notNull(),
    appId: integer("app_id")
      .notNull()
      .references(() => partnerApps.id, { onDelete: "cascade" }),
    /** The client id that created it (`creatorClientId`); subscriptions are visible to it only. */
    clientId: text("client_id").notNull(),
    /** APP: the hidden holder of the app's app-event endpoint (server/notifications/app-events.ts), one per app and environment. */
    scope: text("scope", { enum: ["VEHICLE", "ACCOUNT", "SYSTEM", "APP"] }).notNull(),
    accountId: integer("account_id").references(() => accounts.id, { onDelete: "cascade" }),
    vehicleId: integer("vehicle_id").references(() => vehicles.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    notificationPeriod: text("notification_period").notNull(),
    /** Minutes between two notifications (per vehicle); 0 = no limit. */
    minimumTime: integer("minimum_time").notNull().default(0),
    /** The type's criteria (origin, radius, dataKey, …) as validated on the way in. */
    criteria: jsonb("criteria").notNull().default({}),
    /** The legacy single-receiver form, echoed back as sent (its delivery is in subscription_deliveries). */
    postUrl: text("post_url"),
    postHeaders: jsonb("post_headers"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [
    // Ingest looks up a vehicle's live subscriptions on every data set.
    index("subscriptions_vehicle_live_idx")
      .on(t.vehicleId)
      .where(sql`${t.deletedAt} is null`),
    index("subscriptions_account_live_idx")
      .on(t.accountId, t.type)
      .where(sql`${t.deletedAt} is null and ${t.scope} = 'ACCOUNT'`),
    index("subscriptions_app_idx").on(t.appId, t.environment, t.scope, t.id),
    uniqueIndex("subscriptions_app_events_key")
      .on(t.appId, t.environment)
      .where(sql`${t.scope} = 'APP'`),
  ],
);

// How a subscription's notifications leave the service (docs/subscriptions.md#deliveries): HTTP_POST or EMAIL.
// `active` and `deactivationReason` are set by the service only.
export const subscriptionDeliveries = pgTable(
  "subscription_deliveries",
  {
    id: serial("id").primaryKey(),
    subscriptionId: integer("subscription_id")
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    position: smallint("position").notNull(),
    type: text("type", { enum: ["HTTP_POST", "EMAIL"] }).notNull(),
    postUrl: text("post_url"),
    postHeaders: jsonb("post_headers"),
    /** access_token, client_id, client_secret, refresh_token, redirect_uri (docs/subscriptions.md#deliveries). */
    oauth2: jsonb("oauth2"),
    recipient: text("recipient"),
    subscriberSubject: text("subscriber_subject"),
    subscriberContent: text("subscriber_content"),
    active: boolean("active").notNull().default(true),
    deactivationReason: text("deactivation_reason"),
    deactivatedAt: timestamp("deactivated_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("subscription_deliveries_subscription_idx").on(t.subscriptionId, t.position)],
);

// Evaluation state per subscription and vehicle (an account subscription keeps one per vehicle).
// Ingest reads and writes it under the vehicle's row lock, so two data sets of one vehicle never
// evaluate against the same state: no double-fired and no missed edge.
export const subscriptionStates = pgTable(
  "subscription_states",
  {
    subscriptionId: integer("subscription_id")
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    vehicleId: integer("vehicle_id")
      .notNull()
      .references(() => vehicles.id, { onDelete: "cascade" }),
    /** Whether the criteria were met by the newest evaluated data set. */
    met: boolean("met").notNull(),
    /** Timestamp of the newest evaluated data set. */
    evaluatedAt: timestamp("evaluated_at", { withTimezone: true }).notNull(),
    /** Event time of the last notification, for minimumTime. */
    notifiedAt: timestamp("notified_at", { withTimezone: true }),
    /** VEHICLETOWED: where the vehicle was parked when its ignition went off. */
    anchorLatitude: doublePrecision("anchor_latitude"),
    anchorLongitude: doublePrecision("anchor_longitude"),
  },
  (t) => [primaryKey({ columns: [t.subscriptionId, t.vehicleId] })],
);

// A PostgreSQL transaction id, carried as text (as in telemetry.ts).
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => "xid8" });

// One notification per event and subscription (docs/subscriptions.md#notifications). vehicle_id is not a foreign key:
// the notifications of account subscriptions (VEHICLECREATED, VEHICLEDELETED, an account-wide WAYPOINT's)
// outlive the vehicle they name; vehicle deletion removes those of the vehicle's own subscriptions.
export const notifications = pgTable(
  "notifications",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    environment: environmentEnum("environment").notNull(),
    // No foreign keys on notifications, nor from their pending deliveries to them: a key checks
    // every inserted row (a subscribed batch of 500 data sets writes ~500 notifications and as
    // many deliveries, and the checks were a sixth of its PostgreSQL time). Ingest writes them in
    // the statement that checks the vehicle, its subscriptions and account, so they exist; and
    // the deletes a key would cascade are statement triggers (subscriptions_delete_notifications,
    // accounts_delete_notifications, notifications_delete_deliveries: function
    // wayline_delete_dependents) deleting, when a subscription or an account goes, its
    // notifications, and when a notification goes, its deliveries. Vehicle deletion deletes its own subscriptions' notifications itself.
    subscriptionId: integer("subscription_id").notNull(),
    // The subscription's app, copied for the per-app lists.
    appId: integer("app_id").notNull(),
    accountId: integer("account_id"),
    vehicleId: integer("vehicle_id"),
    dataSetId: bigint("data_set_id", { mode: "number" }),
    tripId: bigint("trip_id", { mode: "number" }),
    type: text("type").notNull(),
    /** When the event happened (`_timestamp`). */
    eventAt: timestamp("event_at", { withTimezone: true }).notNull(),
    /** When the notification was made (`eventTimestamp`). */
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** The subscription's period and minimumTime when it fired, and the type's recorded values. */
    body: jsonb("body").notNull(),
    /** From GET test/vehicle/…/eventSubscription/{id}: not an event, never counts for minimumTime. */
    test: boolean("test").notNull().default(false),
    /** The receiver's last HTTP status (0 until an HTTP_POST delivery answered). */
    httpStatusCode: integer("http_status_code").notNull().default(0),
    /**
     * The transaction that made it (docs/event-feed.md): the event feed hands out only events of
     * transactions older than every one still running, in (tx_id, id) order. Null on the rows made
     * before the feed existed (the column came without rewriting the table); read as '0'. Every
     * statement inserting notifications sends NOTIFY wayline_events ("<tx_id> <app ids>", trigger
     * notifications_feed_notify, migration 0026) when it commits, which wakes the event streams.
     */
    txId: xid8("tx_id").default(sql`pg_current_xact_id()`),
  },
  (t) => [
    index("notifications_feed_idx").on(t.appId, t.environment, sql`coalesce(${t.txId}, '0'::xid8)`, t.id),
    index("notifications_subscription_idx").on(t.subscriptionId, t.eventAt, t.id),
    index("notifications_vehicle_idx").on(t.vehicleId, t.appId, t.eventAt, t.id),
    index("notifications_account_idx").on(t.accountId, t.appId, t.eventAt, t.id),
  ],
);

// The work a notification leaves for the delivery worker: one row per active delivery of its
// subscription, written in the same transaction as the notification, so none can be lost.
export const notificationDeliveries = pgTable(
  "notification_deliveries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    // Deleted with its notification by a trigger (see notifications).
    notificationId: bigint("notification_id", { mode: "number" }).notNull(),
    // Not a foreign key either (migration 0032): a statement trigger
    // (subscription_deliveries_delete_pending) deletes the rows of a removed delivery, and
    // enqueueDeliveries (server/notifications/pending-deliveries.ts), the one writer, reads the
    // deliveries it names FOR KEY SHARE, the lock the key's check took.
    deliveryId: integer("delivery_id").notNull(),
    status: text("status", { enum: ["PENDING", "DELIVERED", "FAILED"] })
      .notNull()
      .default("PENDING"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    // The row's place in the delivery queue (server/delivery/queue.ts, migration 0034): meaningful
    // only while it is PENDING. How many attempts failed, when it is due (now, or a retry's time),
    // since when it has been failing (24 h of failures deactivate the delivery), and which worker
    // holds it until when (set only while a worker has it in hand).
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    failingSince: timestamp("failing_since", { withTimezone: true }),
    leaseOwner: text("lease_owner"),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
  },
  (t) => [
    index("notification_deliveries_notification_idx").on(t.notificationId),
    index("notification_deliveries_delivery_idx").on(t.deliveryId, t.id),
    // The console's backlog per delivery (pending count, oldest pending): only the pending rows.
    index("notification_deliveries_pending_by_delivery_idx")
      .on(t.deliveryId, t.createdAt)
      .where(sql`${t.status} = 'PENDING'`),
    // The queue's claim (server/delivery/claims.ts): the pending rows in the order they come due.
    index("notification_deliveries_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'PENDING'`),
  ],
);
