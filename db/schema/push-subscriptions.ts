import { bigserial, index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

// A browser's Web Push subscription for a driver's alerts (docs/browser-notifications.md): the push
// service's endpoint (RFC 8030) and the browser's keys for the message encryption (RFC 8291). One
// row per endpoint: a browser profile has one endpoint per site, and a second driver signing in on it
// gets a new one (the switch unsubscribes first). A push service answering 404 or 410 removes the row.
export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull(),
    /** The browser's P-256 public key, 65 bytes uncompressed, base64url. */
    p256dh: text("p256dh").notNull(),
    /** The 16-byte authentication secret, base64url. */
    auth: text("auth").notNull(),
    /** What the driver sees to tell browsers apart ("Chrome on Linux"), from the User-Agent. */
    userAgentLabel: text("user_agent_label"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** When a push service last accepted a message for it. */
    lastSuccessAt: timestamp("last_success_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("push_subscriptions_endpoint_key").on(t.endpoint),
    index("push_subscriptions_account_idx").on(t.accountId),
  ],
);
