import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { vehicles } from "./vehicles";

// The driver's own alerts (docs/alerts.md): what the driver chose per kind, the quiet hours, the
// episodes that keep a flapping condition to one alert, the alerts themselves and one delivery row per
// channel, which is the worker's queue for them as notification_deliveries is for partners'.

/** Per account and kind (server/alerts/kinds.ts): the channels, and the threshold of a kind that has one. */
export const alertPreferences = pgTable(
  "alert_preferences",
  {
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    email: boolean("email").notNull().default(false),
    browser: boolean("browser").notNull().default(false),
    // The speed limit (in `unit`) or the offline time (minutes); null for kinds without one.
    threshold: doublePrecision("threshold"),
    unit: text("unit"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.kind] })],
);

/** Quiet hours, a daily window of local clock times ("HH:MM", in the account's time zone); none when absent. */
export const alertSettings = pgTable("alert_settings", {
  accountId: integer("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  quietFrom: text("quiet_from"),
  quietTo: text("quiet_to"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One condition's episode per vehicle and kind (and place: 0 for kinds without one), written by
 * ingest only (server/alerts/episodes.ts): open from the first triggering data set, closed once
 * the data sets have said "clear" for two minutes. The anchor is towing's parking position.
 */
export const alertEpisodes = pgTable(
  "alert_episodes",
  {
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    vehicleId: integer("vehicle_id")
      .notNull()
      .references(() => vehicles.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    placeId: integer("place_id").notNull().default(0),
    open: boolean("open").notNull(),
    openedAt: timestamp("opened_at", { withTimezone: true }),
    clearSince: timestamp("clear_since", { withTimezone: true }),
    evaluatedAt: timestamp("evaluated_at", { withTimezone: true }).notNull(),
    anchorLatitude: doublePrecision("anchor_latitude"),
    anchorLongitude: doublePrecision("anchor_longitude"),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.vehicleId, t.kind, t.placeId] })],
);

/** Every alert, sent or not: the driver's list. A test alert has no vehicle. */
export const alerts = pgTable(
  "alerts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    vehicleId: integer("vehicle_id").references(() => vehicles.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    placeId: integer("place_id"),
    at: timestamp("at", { withTimezone: true }).notNull(),
    summary: text("summary").notNull(),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    test: boolean("test").notNull().default(false),
    quiet: boolean("quiet").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("alerts_account_idx").on(t.accountId, t.id), index("alerts_vehicle_idx").on(t.vehicleId)],
);

/**
 * One row per alert and chosen channel: PENDING rows are the delivery worker's queue (due at
 * next_attempt_at, leased like notification_deliveries), DELIVERED or FAILED once decided, and
 * SKIPPED (with the reason: quiet hours) when it was never to be sent.
 */
export const alertDeliveries = pgTable(
  "alert_deliveries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    alertId: bigint("alert_id", { mode: "number" })
      .notNull()
      .references(() => alerts.id, { onDelete: "cascade" }),
    channel: text("channel", { enum: ["email", "browser"] }).notNull(),
    status: text("status", { enum: ["PENDING", "DELIVERED", "FAILED", "SKIPPED"] })
      .notNull()
      .default("PENDING"),
    reason: text("reason"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    failingSince: timestamp("failing_since", { withTimezone: true }),
    leaseOwner: text("lease_owner"),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
  },
  (t) => [
    index("alert_deliveries_alert_idx").on(t.alertId),
    index("alert_deliveries_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'PENDING'`),
  ],
);
