import { sql } from "drizzle-orm";
import { check, doublePrecision, index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

/** A vertex of a place's polygon, as stored in `polygon` (an open ring: the first vertex is not repeated). */
export type PlaceVertex = { latitude: number; longitude: number };

// A driver's named places (docs/driver-site.md#places): a circle (centre and radius) or a polygon,
// kept per account and gone with it. The shape's columns are filled for its kind only (the check);
// the rules of a shape (radius and vertex limits, no self-intersection) are the service's.
export const places = pgTable(
  "places",
  {
    id: serial("id").primaryKey(),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    kind: text("kind", { enum: ["circle", "polygon"] }).notNull(),
    centerLatitude: doublePrecision("center_latitude"),
    centerLongitude: doublePrecision("center_longitude"),
    radiusM: doublePrecision("radius_m"),
    polygon: jsonb("polygon").$type<PlaceVertex[]>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("places_account_idx").on(t.accountId, t.id),
    check(
      "places_shape_check",
      sql`(${t.kind} = 'circle' and ${t.centerLatitude} is not null and ${t.centerLongitude} is not null
        and ${t.radiusM} is not null and ${t.polygon} is null)
       or (${t.kind} = 'polygon' and ${t.polygon} is not null and ${t.centerLatitude} is null
        and ${t.centerLongitude} is null and ${t.radiusM} is null)`,
    ),
  ],
);
