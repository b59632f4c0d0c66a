import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { vehicles } from "./vehicles";

// A driver's shared live location (docs/driver-site.md#share-a-live-location): one vehicle's
// position for anyone holding the link, until `endsAt` or until the driver ends it (`endedAt`).
// The token is kept as it was given so the driver can copy the link again
// (docs/decisions/0145-share-link-token-kept.md). Re-sharing makes a new row: nothing here is
// unique per vehicle. The keys cascade, so a vehicle or account that goes takes its links and
// their views with it.
export const shareLinks = pgTable(
  "share_links",
  {
    id: serial("id").primaryKey(),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    vehicleId: integer("vehicle_id")
      .notNull()
      .references(() => vehicles.id, { onDelete: "cascade" }),
    /** 128 random bits, base64url (22 characters). */
    token: text("token").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    /** The driver ended it before endsAt. */
    endedAt: timestamp("ended_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("share_links_token_key").on(t.token),
    index("share_links_vehicle_idx").on(t.vehicleId, t.endsAt),
    index("share_links_account_idx").on(t.accountId),
  ],
);

// Each opening of a shared page: a line of the driver's access log as "shared link"
// (docs/driver-site.md#data-access), and the views the vehicle page lists.
export const shareLinkViews = pgTable(
  "share_link_views",
  {
    id: serial("id").primaryKey(),
    linkId: integer("link_id")
      .notNull()
      .references(() => shareLinks.id, { onDelete: "cascade" }),
    viewedAt: timestamp("viewed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("share_link_views_link_idx").on(t.linkId, t.viewedAt)],
);
