import { bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { partnerApps } from "./apps";

// The sandbox inbox (docs/delivery.md#sandbox-inbox): a webhook receiver every app gets on this
// service's own origin, so a partner can watch deliveries arrive without a server of their own.
// One row per app, made the first time the console shows it; the token in its URL is unguessable.
export const sandboxInboxes = pgTable(
  "sandbox_inboxes",
  {
    appId: integer("app_id")
      .primaryKey()
      .references(() => partnerApps.id, { onDelete: "cascade" }),
    token: text("token").notNull(),
    /** What the inbox answers: 200, or 500 / 401 to try retries and the OAuth 2.0 refresh. */
    answerStatus: integer("answer_status").notNull().default(200),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("sandbox_inboxes_token_key").on(t.token)],
);

// What reached an inbox: the last 100 per app (older ones are deleted with each insert).
export const sandboxInboxRequests = pgTable(
  "sandbox_inbox_requests",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    appId: integer("app_id")
      .notNull()
      .references(() => partnerApps.id, { onDelete: "cascade" }),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    method: text("method").notNull(),
    headers: jsonb("headers").$type<Record<string, string>>().notNull(),
    body: text("body").notNull(),
    /** The status the inbox answered. */
    answerStatus: integer("answer_status").notNull(),
    /** Standard Webhooks check with the app's signing secrets at arrival; null: not signed. */
    signatureValid: boolean("signature_valid"),
    signatureNote: text("signature_note").notNull(),
  },
  (t) => [index("sandbox_inbox_requests_app_idx").on(t.appId, t.id)],
);
