import { boolean, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { environmentEnum } from "./environment";

// A partner app (OAuth client). It holds one credential pair per environment.
export const partnerApps = pgTable("partner_apps", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  // Who publishes the app, as the consent screen names it ("Fleet Co by Fleet Co Inc.").
  ownerName: text("owner_name"),
  redirectUris: text("redirect_uris").array().notNull().default([]),
  // Public clients (no secret kept safely, e.g. mobile apps) must use PKCE on the authorization page.
  isPublic: boolean("is_public").notNull().default(false),
  // Production data-set POSTs are reserved to apps flagged as data providers (docs/device-data.md).
  dataProvider: boolean("data_provider").notNull().default(false),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const appCredentials = pgTable(
  "app_credentials",
  {
    id: serial("id").primaryKey(),
    appId: integer("app_id")
      .notNull()
      .references(() => partnerApps.id, { onDelete: "cascade" }),
    environment: environmentEnum("environment").notNull(),
    clientId: text("client_id").notNull(),
    // SHA-256 of the secret; the secret itself is shown once and never stored.
    secretHash: text("secret_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("app_credentials_client_id_key").on(t.clientId),
    uniqueIndex("app_credentials_app_env_key").on(t.appId, t.environment),
  ],
);
