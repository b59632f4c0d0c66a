import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { appCredentials } from "./apps";
import { environmentEnum } from "./environment";

// Authorization codes: from account creation (no redirect URI) or from the authorization page.
// Only the SHA-256 of the code is stored.
export const oauthCodes = pgTable(
  "oauth_codes",
  {
    id: serial("id").primaryKey(),
    environment: environmentEnum("environment").notNull(),
    codeHash: text("code_hash").notNull(),
    credentialId: integer("credential_id")
      .notNull()
      .references(() => appCredentials.id, { onDelete: "cascade" }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    origin: text("origin", { enum: ["account_creation", "authorization"] }).notNull(),
    redirectUri: text("redirect_uri"),
    codeChallenge: text("code_challenge"),
    codeChallengeMethod: text("code_challenge_method"),
    scopes: text("scopes").notNull().default(""),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("oauth_codes_hash_key").on(t.codeHash)],
);

// One row per issued access token and its refresh token. Rotation makes a new row in the same
// family; presenting a used refresh token revokes the whole family (reuse detection).
export const oauthTokens = pgTable(
  "oauth_tokens",
  {
    id: serial("id").primaryKey(),
    environment: environmentEnum("environment").notNull(),
    credentialId: integer("credential_id")
      .notNull()
      .references(() => appCredentials.id, { onDelete: "cascade" }),
    // Null for client-credentials tokens, which act for the app itself.
    accountId: integer("account_id").references(() => accounts.id, { onDelete: "cascade" }),
    accessHash: text("access_hash").notNull(),
    accessExpiresAt: timestamp("access_expires_at", { withTimezone: true }).notNull(),
    refreshHash: text("refresh_hash"),
    refreshExpiresAt: timestamp("refresh_expires_at", { withTimezone: true }),
    refreshUsedAt: timestamp("refresh_used_at", { withTimezone: true }),
    familyId: text("family_id").notNull(),
    originCodeId: integer("origin_code_id").references(() => oauthCodes.id, { onDelete: "set null" }),
    grantType: text("grant_type").notNull(),
    scopes: text("scopes").notNull().default(""),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("oauth_tokens_access_key").on(t.accessHash),
    uniqueIndex("oauth_tokens_refresh_key").on(t.refreshHash),
    index("oauth_tokens_family_idx").on(t.familyId),
    index("oauth_tokens_origin_code_idx").on(t.originCodeId),
    index("oauth_tokens_account_idx").on(t.accountId),
  ],
);
