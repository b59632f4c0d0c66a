import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { partnerApps } from "./apps";
import { environmentEnum } from "./environment";

export const accounts = pgTable(
  "accounts",
  {
    id: serial("id").primaryKey(),
    environment: environmentEnum("environment").notNull(),
    username: text("username").notNull(),
    passwordHash: text("password_hash").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    email: text("email"),
    zipcode: text("zipcode"),
    phone: text("phone"),
    timeZone: text("time_zone"),
    preferredContact: text("preferred_contact"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // Usernames are unique per environment, compared without regard to case.
  (t) => [uniqueIndex("accounts_env_username_key").on(t.environment, sql`lower(${t.username})`)],
);

// Which apps may act on an account: the app that created it, and apps the driver authorized.
export const accountGrants = pgTable(
  "account_grants",
  {
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    appId: integer("app_id")
      .notNull()
      .references(() => partnerApps.id, { onDelete: "cascade" }),
    source: text("source", { enum: ["created", "authorized"] }).notNull(),
    grantedAt: timestamp("granted_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    // When one of the app's tokens for the account was last accepted by the API, to the minute
    // (server/api-auth/last-use.ts); null until it is. Shown on the driver's connected-apps page.
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    // What the driver granted (docs/oauth.md#scopes): location at one precision, vehicle data,
    // account fields. Grants from before scopes existed hold everything, precise, as they did.
    locationPrecision: text("location_precision", { enum: ["precise", "approximate", "none"] })
      .notNull()
      .default("precise"),
    // The highest precision the app asked for: the driver may later choose up to it, never more.
    locationAsked: text("location_asked", { enum: ["precise", "approximate", "none"] })
      .notNull()
      .default("precise"),
    dataScope: boolean("data_scope").notNull().default(true),
    accountScope: boolean("account_scope").notNull().default(true),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.appId] }), index("account_grants_app_idx").on(t.appId, t.accountId)],
);
