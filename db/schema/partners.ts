import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { partnerApps } from "./apps";

// Partner console users: the developers who sign in to /console and own partner apps.
// A separate table from driver accounts: a partner is not a driver of any environment, and the
// two never share a session (server/surfaces/console/auth-options.ts).
export const partnerUsers = pgTable(
  "partner_users",
  {
    id: serial("id").primaryKey(),
    /** Lower-cased on the way in; the sign-in name. */
    email: text("email").notNull(),
    name: text("name").notNull(),
    passwordHash: text("password_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("partner_users_email_key").on(t.email)],
);

// Which partner owns which app (one owner per app). Kept here rather than as a column of
// partner_apps so apps made by `npm run app:create` stay ownerless (operator apps). The obligations
// of an app that creates accounts (docs/console.md#credentials) are confirmed per app; the production credential exists only after that.
export const partnerAppOwners = pgTable(
  "partner_app_owners",
  {
    appId: integer("app_id")
      .primaryKey()
      .references(() => partnerApps.id, { onDelete: "cascade" }),
    partnerUserId: integer("partner_user_id")
      .notNull()
      .references(() => partnerUsers.id, { onDelete: "cascade" }),
    obligationsConfirmedAt: timestamp("obligations_confirmed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("partner_app_owners_user_idx").on(t.partnerUserId, t.appId)],
);
