import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

// Failed sign-ins, counted per account ("account:<env>:<username>") and per client address
// ("address:<ip>") so that guessing slows down however many processes serve the sign-in form
// (server/platform/sign-in/throttle.ts). A row exists only while it has something to remember.
export const signInThrottles = pgTable("sign_in_throttles", {
  key: text("key").primaryKey(),
  failures: integer("failures").notNull().default(0),
  lastFailureAt: timestamp("last_failure_at", { withTimezone: true }).notNull().defaultNow(),
  blockedUntil: timestamp("blocked_until", { withTimezone: true }),
});
