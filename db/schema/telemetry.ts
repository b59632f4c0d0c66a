import {
  bigint,
  bigserial,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { accounts } from "./accounts";
import { partnerApps } from "./apps";
import { environmentEnum } from "./environment";
import { vehicles } from "./vehicles";

// PostgreSQL transaction ids (xid8) order data points by commit visibility for sinceLastCall
// cursors: a point whose transaction is still running when a cursor moves past its id would
// otherwise be skipped for good. Carried as text.
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => "xid8" });

// A trip: ON opens it, RUNNING extends it, OFF closes it (docs/device-data.md).
export const trips = pgTable(
  "trips",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    environment: environmentEnum("environment").notNull(),
    vehicleId: integer("vehicle_id")
      .notNull()
      .references(() => vehicles.id, { onDelete: "cascade" }),
    startTime: timestamp("start_time", { withTimezone: true }).notNull(),
    endTime: timestamp("end_time", { withTimezone: true }),
    /** The newest data set in the trip: where an ON closing this trip ends it. */
    lastDataAt: timestamp("last_data_at", { withTimezone: true }).notNull(),
    /** The closing GEN_TRIP_MILEAGE, in miles to the thousandth, exact like the vehicle's mileage. */
    mileage: numeric("mileage", { precision: 11, scale: 3, mode: "number" }),
    /** The vehicle's mileage when the trip opened: where its GEN_TRIP_MILEAGE counts from on close. */
    startMileage: numeric("start_mileage", { precision: 11, scale: 3, mode: "number" }),
    startWaypointAt: timestamp("start_waypoint_at", { withTimezone: true }),
    startLatitude: doublePrecision("start_latitude"),
    startLongitude: doublePrecision("start_longitude"),
    endWaypointAt: timestamp("end_waypoint_at", { withTimezone: true }),
    endLatitude: doublePrecision("end_latitude"),
    endLongitude: doublePrecision("end_longitude"),
  },
  (t) => [
    index("trips_vehicle_start_idx").on(t.vehicleId, t.startTime),
    // Ingest reads the vehicle's open trip on every post: without this, a vehicle with no open
    // trip had all its closed trips scanned to find none.
    index("trips_open_idx")
      .on(t.vehicleId, t.startTime)
      .where(sql`end_time is null`),
  ],
);

// data_sets, data_points: partitioned by recorded_at, a calendar month each (migration 0028, db/partitions.ts,
// docs/partitions.md), which drizzle has no word for: the keys carry the partition key, and a point's data
// set is not a foreign key (the trigger data_sets_delete_points deletes a deleted set's points). Nor is a
// set's trip, since migration 0033 (its check cost every inserted set; the trigger trips_unset_data_sets
// unsets a deleted trip, and the migration says why every trip a set names exists).
export const dataSets = pgTable(
  "data_sets",
  {
    id: bigserial("id", { mode: "number" }).notNull(),
    environment: environmentEnum("environment").notNull(),
    vehicleId: integer("vehicle_id")
      .notNull()
      .references(() => vehicles.id, { onDelete: "cascade" }),
    tripId: bigint("trip_id", { mode: "number" }),
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull(),
    ignitionStatus: text("ignition_status", { enum: ["ON", "RUNNING", "OFF"] }).notNull(),
    deviceId: text("device_id"),
    vin: text("vin"),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    // The span of the set's own time and its points' times, written by ingest: reads that reach the
    // points through their set bound them by it, so PostgreSQL probes only the months it covers (a
    // point may carry its own timestamp, months from its set's). Null: not known, every month is read.
    pointsFrom: timestamp("points_from", { withTimezone: true }),
    pointsTo: timestamp("points_to", { withTimezone: true }),
  },
  // One data set per vehicle and timestamp: a second one is a duplicate and is ignored.
  (t) => [
    primaryKey({ columns: [t.id, t.recordedAt] }),
    uniqueIndex("data_sets_vehicle_time_key").on(t.vehicleId, t.recordedAt),
    index("data_sets_trip_idx").on(t.tripId, t.recordedAt),
  ],
);

export const dataPoints = pgTable(
  "data_points",
  {
    id: bigserial("id", { mode: "number" }).notNull(),
    // The vehicle of the point's data set, copied for the vehicle's indexes. No foreign key of its
    // own: the data set's key already ties the point to the vehicle (and deletes it with it), and
    // a second check per point was a fifth of PostgreSQL's work for a batch of 1,500 points.
    vehicleId: integer("vehicle_id").notNull(),
    // Its data set's id. Not a foreign key: one to a partitioned table would have to name the set's
    // recorded_at too; a statement trigger on data_sets deletes a deleted set's points (migration 0028).
    dataSetId: bigint("data_set_id", { mode: "number" }).notNull(),
    /** Position in its data set's datum array. */
    position: smallint("position").notNull(),
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull(),
    key: text("key").notNull(),
    value: text("value").notNull(),
    txId: xid8("tx_id")
      .notNull()
      .default(sql`pg_current_xact_id()`),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.recordedAt] }),
    // Ascending: a btree serves ORDER BY … DESC by scanning backwards. drizzle's .desc() means
    // DESC NULLS LAST, which a plain ORDER BY … DESC (NULLS FIRST) cannot use, so those indexes
    // were never read in order (a vehicle with a million points took 160 ms a page; 0.1 ms now).
    index("data_points_vehicle_time_idx").on(t.vehicleId, t.recordedAt, t.id),
    index("data_points_vehicle_key_time_idx").on(t.vehicleId, t.key, t.recordedAt, t.id),
    index("data_points_data_set_idx").on(t.dataSetId, t.position),
    index("data_points_vehicle_tx_idx").on(t.vehicleId, t.txId, t.id),
  ],
);

// Counts kept by ingest in the same transaction, so list totals stay fast on a vehicle with
// millions of points (count(*) would not); a key's points by month, for retention's whole months.
export const vehicleDataStats = pgTable("vehicle_data_stats", {
  vehicleId: integer("vehicle_id")
    .primaryKey()
    .references(() => vehicles.id, { onDelete: "cascade" }),
  dataSets: bigint("data_sets", { mode: "number" }).notNull().default(0),
  dataPoints: bigint("data_points", { mode: "number" }).notNull().default(0),
});

export const vehicleKeyStats = pgTable(
  "vehicle_key_stats",
  {
    vehicleId: integer("vehicle_id")
      .notNull()
      .references(() => vehicles.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    // The calendar month (UTC) of the points' own times, the month of their data_points partition:
    // retention drops a month by taking its rows off the totals, without counting its points.
    month: date("month", { mode: "string" }).notNull(),
    dataPoints: bigint("data_points", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.vehicleId, t.key, t.month] }), index("vehicle_key_stats_month_idx").on(t.month)],
);

// Each vehicle's newest point of each key, a copy of the point kept by ingest in the statement that writes it:
// GET …/data/?mostRecentOnly=true reads these rows and no partition of data_points (reading each key's newest
// point there probes every month's partition per key: docs/partitions.md#the-newest-point-of-each-key).
export const latestDataPoints = pgTable(
  "latest_data_points",
  {
    vehicleId: integer("vehicle_id")
      .notNull()
      .references(() => vehicles.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    /** The point's id in data_points. */
    pointId: bigint("point_id", { mode: "number" }).notNull(),
    dataSetId: bigint("data_set_id", { mode: "number" }).notNull(),
    position: smallint("position").notNull(),
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull(),
    value: text("value").notNull(),
  },
  (t) => [primaryKey({ columns: [t.vehicleId, t.key] })],
);

// Where GET /account/data/?sinceLastCall=true left off, per app and account.
export const dataCursors = pgTable(
  "data_cursors",
  {
    appId: integer("app_id")
      .notNull()
      .references(() => partnerApps.id, { onDelete: "cascade" }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    txId: xid8("tx_id").notNull(),
    pointId: bigint("point_id", { mode: "number" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.accountId] })],
);
