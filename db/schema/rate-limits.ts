import { boolean, doublePrecision, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

// Rate-limit buckets shared by every process (server/platform/rate-limits/): one row per limited thing,
// e.g. ("api-token", token id) or ("oauth-address", an IP). The row holds GCRA's "theoretical
// arrival time": a bucket whose `tat` has passed is full, the same as no row, so stale rows can
// be dropped at any time. The policy travels with each check (emission interval, burst) and is
// kept on the row only so that the one upsert can use it.
export const rateLimits = pgTable(
  "rate_limits",
  {
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    tat: timestamp("tat", { withTimezone: true }).notNull(),
    emissionMs: doublePrecision("emission_ms").notNull(),
    burst: integer("burst").notNull(),
    /** Whether the latest check on this row was let through (read back by the same statement). */
    allowed: boolean("allowed").notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] })],
);
