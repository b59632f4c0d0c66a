import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { partnerApps } from "./apps";
import { alertDeliveries } from "./alerts";
import { notificationDeliveries } from "./subscriptions";

// Webhook signing secrets (Standard Webhooks, `whsec_…`), one per app for both environments, kept
// retrievable (the service signs with it). A table of its own for rotation (partner console):
// every secret not yet expired signs, so during a rotation deliveries carry both signatures.
export const appSigningSecrets = pgTable(
  "app_signing_secrets",
  {
    id: serial("id").primaryKey(),
    appId: integer("app_id")
      .notNull()
      .references(() => partnerApps.id, { onDelete: "cascade" }),
    secret: text("secret").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set when a newer secret replaces this one; it keeps signing until then. */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
  },
  (t) => [index("app_signing_secrets_app_idx").on(t.appId)],
);

// Every attempt to hand a notification to its receiver, as the partner console shows it. Partitioned by
// attempted_at, a calendar month each (migration 0028, docs/partitions.md); the key carries it.
export const deliveryAttempts = pgTable(
  "delivery_attempts",
  {
    id: bigserial("id", { mode: "number" }).notNull(),
    notificationDeliveryId: bigint("notification_delivery_id", { mode: "number" })
      .notNull()
      .references(() => notificationDeliveries.id, { onDelete: "cascade" }),
    /** Denormalised for the console's per-notification and per-delivery listings. */
    notificationId: bigint("notification_id", { mode: "number" }).notNull(),
    deliveryId: integer("delivery_id").notNull(),
    attemptedAt: timestamp("attempted_at", { withTimezone: true }).notNull(),
    /** HTTP_POST: the URL posted to; EMAIL: mailto:recipient. */
    target: text("target").notNull(),
    /** DELIVERED, RETRY, DEACTIVATED, REDIRECTED (a 3xx leg) or REFRESHED (a 401 before a token refresh). */
    outcome: text("outcome").notNull(),
    httpStatus: integer("http_status"),
    latencyMs: integer("latency_ms").notNull(),
    error: text("error"),
    responseExcerpt: text("response_excerpt"),
    /** Standard Webhooks: `${webhook-id}.${webhook-timestamp}.${body}` and the header sent. */
    signedContent: text("signed_content"),
    signature: text("signature"),
    /** The request's headers as sent (an oauth2 bearer token shortened); null for e-mails and older attempts. */
    requestHeaders: jsonb("request_headers").$type<Record<string, string>>(),
    workerId: text("worker_id"),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.attemptedAt] }),
    index("delivery_attempts_delivery_idx").on(t.notificationDeliveryId, t.id),
    index("delivery_attempts_notification_idx").on(t.notificationId, t.id),
    // The console's delivery health (server/surfaces/console/health-queries.ts): a delivery's attempts in a
    // time window, read from the index alone (index-only scan; drizzle has no INCLUDE, so the
    // figures it needs are trailing key columns). docs/benchmarks.md#benchdelivery-health.
    index("delivery_attempts_health_idx").on(t.deliveryId, t.attemptedAt, t.outcome, t.httpStatus, t.latencyMs),
  ],
);

// The console's delivery health, rolled up (server/delivery/attempt-rollups.ts writes it in the
// transaction that inserts the attempts; server/surfaces/console/health-queries.ts reads it): per delivery
// and bucket, of 5 minutes and of 1 hour (bucket_seconds 300 and 3600, on the UTC grid; each
// attempt counts in one bucket of each), the attempts (REDIRECTED legs aside), how many were
// DELIVERED, the failures by HTTP status ({"500": 2, "none": 1}: "none" is no answer) and the
// latencies as a log-scale histogram ({"41": 3}: bin of LATENCY_BIN_BOUNDS_MS → count).
// docs/console.md#delivery-health.
export const deliveryAttemptRollups = pgTable(
  "delivery_attempt_rollups",
  {
    deliveryId: integer("delivery_id").notNull(),
    bucketSeconds: integer("bucket_seconds").notNull(),
    bucketStart: timestamp("bucket_start", { withTimezone: true }).notNull(),
    attempts: integer("attempts").notNull(),
    delivered: integer("delivered").notNull(),
    failures: jsonb("failures").$type<Record<string, number>>().notNull(),
    latency: jsonb("latency").$type<Record<string, number>>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.deliveryId, t.bucketSeconds, t.bucketStart] })],
);

// E-mails made while no SMTP_URL is configured: the partner console shows them.
export const emailOutbox = pgTable(
  "email_outbox",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    notificationDeliveryId: bigint("notification_delivery_id", { mode: "number" }).references(
      () => notificationDeliveries.id,
      { onDelete: "set null" },
    ),
    appId: integer("app_id").references(() => partnerApps.id, { onDelete: "cascade" }),
    // A driver's alert e-mail (server/alerts/delivery/) rather than a partner's notification.
    alertDeliveryId: bigint("alert_delivery_id", { mode: "number" }).references(() => alertDeliveries.id, {
      onDelete: "cascade",
    }),
    recipient: text("recipient").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("email_outbox_app_idx").on(t.appId, t.id),
    index("email_outbox_alert_delivery_idx").on(t.alertDeliveryId),
  ],
);
