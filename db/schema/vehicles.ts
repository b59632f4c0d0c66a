import {
  boolean,
  doublePrecision,
  index,
  integer,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { environmentEnum } from "./environment";

export const vehicles = pgTable(
  "vehicles",
  {
    id: serial("id").primaryKey(),
    environment: environmentEnum("environment").notNull(),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    vin: text("vin"),
    label: text("label"),
    autoAssignDevice: boolean("auto_assign_device").notNull().default(true),
    // Miles to the thousandth, an exact decimal: trips add their GEN_TRIP_MILEAGE, and 0.1 + 0.2
    // must read 0.3 (docs/decisions/0027-exact-mileage.md, common/telemetry/miles.ts).
    mileage: numeric("mileage", { precision: 11, scale: 3, mode: "number" }).notNull().default(0),
    year: text("year"),
    make: text("make"),
    model: text("model"),
    running: boolean("running").notNull().default(false),
    lastRunningAt: timestamp("last_running_at", { withTimezone: true }),
    lastWaypointAt: timestamp("last_waypoint_at", { withTimezone: true }),
    lastLatitude: doublePrecision("last_latitude"),
    lastLongitude: doublePrecision("last_longitude"),
    /** The newest data set's timestamp: an older one arriving later is "late" (docs/device-data.md). */
    lastDataAt: timestamp("last_data_at", { withTimezone: true }),
    // Set by the driver on the driver site (docs/driver-site.md#pause-location): while true, posted
    // GEN_WAYPOINT values are not stored and location subscriptions are not evaluated.
    locationPaused: boolean("location_paused").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("vehicles_account_idx").on(t.accountId, t.id)],
);

// An in-vehicle device, known by its serial number. It is assigned to at most one vehicle; the
// assignment lives here so that "deviceId unique per environment" is one unique index.
export const devices = pgTable(
  "devices",
  {
    id: serial("id").primaryKey(),
    environment: environmentEnum("environment").notNull(),
    serial: text("serial").notNull(),
    vehicleId: integer("vehicle_id").references(() => vehicles.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("devices_env_serial_key").on(t.environment, t.serial),
    uniqueIndex("devices_vehicle_key").on(t.vehicleId),
  ],
);
