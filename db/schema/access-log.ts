import { check, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { accounts } from "./accounts";
import { partnerApps } from "./apps";

// The access log (docs/driver-site.md#data-access): how many answers and deliveries carried an
// account's data to an app, per data category and hour. Counters, not a row per request: each
// process adds up in memory and flushes every few seconds (server/access-log/). The keys cascade,
// so an account or app that goes takes its counts with it.
export const accessCounts = pgTable(
  "access_counts",
  {
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    appId: integer("app_id")
      .notNull()
      .references(() => partnerApps.id, { onDelete: "cascade" }),
    category: text("category", { enum: ["location", "vehicle_data", "identity", "events"] }).notNull(),
    /** The hour (UTC, truncated) the answers were given in. */
    hour: timestamp("hour", { withTimezone: true }).notNull(),
    count: integer("count").notNull(),
    /** The latest answer of the hour. */
    lastAt: timestamp("last_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.appId, t.category, t.hour] }),
    index("access_counts_app_hour_idx").on(t.appId, t.hour),
    index("access_counts_hour_idx").on(t.hour),
    check("access_counts_category_check", sql`${t.category} in ('location', 'vehicle_data', 'identity', 'events')`),
  ],
);
