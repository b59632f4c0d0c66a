import { sql } from "drizzle-orm";
import { boolean, check, date, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { environmentEnum } from "./environment";

// What the device gateway saw of each device id, per environment (docs/devices.md#what-the-gateway-keeps):
// keyed by the id as the device sends it, not by the vehicle, so that an id no vehicle names yet is
// remembered too (for 7 days: the worker forgets it then), and a vehicle that later names it shows
// that it tried. The gateway also keeps here the device's part of its trip state (the ignition it last
// reported, its last motion), written in the transaction that stores its records.
export const deviceContacts = pgTable(
  "device_contacts",
  {
    environment: environmentEnum("environment").notNull(),
    deviceId: text("device_id").notNull(),
    protocol: text("protocol", { enum: ["osmand", "teltonika", "gt06"] }).notNull(),
    lastContactAt: timestamp("last_contact_at", { withTimezone: true }).notNull(),
    /** The newest record time (the fix's) stored for the device. */
    lastRecordAt: timestamp("last_record_at", { withTimezone: true }),
    /** Records stored on recordsDay (UTC), duplicates of stored ones not counted. */
    recordsDay: date("records_day", { mode: "string" }),
    recordsOnDay: integer("records_on_day").notNull().default(0),
    lastRefusalAt: timestamp("last_refusal_at", { withTimezone: true }),
    lastRefusalReason: text("last_refusal_reason"),
    /** Contacts refused because no vehicle named the id. */
    unknownContacts: integer("unknown_contacts").notNull().default(0),
    /** The ignition the device last reported; null: it never reported one, so its trips come from motion. */
    ignition: boolean("ignition"),
    /** The newest record with motion (speed of 3 km/h or more): a trip from motion closes 5 minutes after it. */
    motionAt: timestamp("motion_at", { withTimezone: true }),
    /** The open TCP connection's id, null when none is open (docs/decisions/0139-what-the-gateway-keeps-per-device.md). */
    connection: text("connection"),
    connectedAt: timestamp("connected_at", { withTimezone: true }),
    /** When a batch last stored records of the device (arrival, not fix time: a buffer emptied late is contact). */
    storedAt: timestamp("stored_at", { withTimezone: true }),
    /** When it counts as silent if nothing more is stored; null once reported (docs/devices.md#silent-devices). */
    silentAt: timestamp("silent_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.environment, t.deviceId] }),
    index("device_contacts_last_contact_idx").on(t.lastContactAt),
    index("device_contacts_silent_idx")
      .on(t.silentAt)
      .where(sql`${t.silentAt} is not null`),
    check("device_contacts_protocol_check", sql`${t.protocol} in ('osmand', 'teltonika', 'gt06')`),
  ],
);
