import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { appCredentials, partnerApps } from "./apps";
import { environmentEnum } from "./environment";
import { trips } from "./telemetry";
import { vehicles } from "./vehicles";

// The sandbox traffic simulator (docs/simulator.md). Route geometry is stored as computed, so a run
// never needs the routing graph again (a restart regenerates its trip from geometry and seed).

/** What the trip model drives on: server/simulator/model.ts RouteGeometry. */
export type StoredGeometry = { points: [number, number][]; limitsMph: number[]; junctions: [number, number][] };

/** Trip parameters beyond the columns: server/simulator/model.ts TripParams. */
export type StoredRunParams = {
  events: { at: number; key: string; value: string }[];
  lowBattery: boolean;
  engineData: boolean;
  fuelLevel: number | null;
  /**
   * The vehicle's mileage when the run was started: the odometer its first lap starts from (each
   * lap adds the route's length). Absent on runs started before the simulator reported GEN_ODOMETER.
   */
  odometer?: number | null;
};

// A route saved by a partner app, reusable for any of its vehicles' simulations.
export const simulationRoutes = pgTable(
  "simulation_routes",
  {
    id: serial("id").primaryKey(),
    environment: environmentEnum("environment").notNull(),
    appId: integer("app_id")
      .notNull()
      .references(() => partnerApps.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    network: text("network").notNull(),
    geometry: jsonb("geometry").$type<StoredGeometry>().notNull(),
    lengthMeters: doublePrecision("length_meters").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("simulation_routes_app_idx").on(t.appId, t.id)],
);

export const simulationRuns = pgTable(
  "simulation_runs",
  {
    id: serial("id").primaryKey(),
    environment: environmentEnum("environment").notNull(),
    vehicleId: integer("vehicle_id")
      .notNull()
      .references(() => vehicles.id, { onDelete: "cascade" }),
    // Who started the run: the loop posts its data sets as this app (for this account, when a
    // user token started it), through the same visibility checks as a device's posts.
    appId: integer("app_id")
      .notNull()
      .references(() => partnerApps.id, { onDelete: "cascade" }),
    credentialId: integer("credential_id")
      .notNull()
      .references(() => appCredentials.id, { onDelete: "cascade" }),
    clientId: text("client_id").notNull(),
    accountId: integer("account_id").references(() => accounts.id, { onDelete: "cascade" }),
    routeId: integer("route_id").references(() => simulationRoutes.id, { onDelete: "set null" }),
    templateId: text("template_id"),
    network: text("network"),
    geometry: jsonb("geometry").$type<StoredGeometry>().notNull(),
    lengthMeters: doublePrecision("length_meters").notNull(),
    mode: text("mode", { enum: ["realtime", "instant"] }).notNull(),
    status: text("status", { enum: ["running", "finished", "stopped"] }).notNull(),
    stopReason: text("stop_reason"),
    speedUp: integer("speed_up").notNull().default(1),
    collectionPeriod: integer("collection_period").notNull(),
    seed: integer("seed").notNull(),
    repeat: boolean("repeat").notNull().default(false),
    params: jsonb("params").$type<StoredRunParams>().notNull(),
    // Real-time progress: the lap being driven, when its ON was due, the next data set to post
    // and when it is due. The loop claims due runs with a lease (FOR UPDATE SKIP LOCKED).
    lap: integer("lap").notNull().default(0),
    lapStartedAt: timestamp("lap_started_at", { withTimezone: true }).notNull(),
    nextIndex: integer("next_index").notNull().default(0),
    nextDueAt: timestamp("next_due_at", { withTimezone: true }),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    /** Stopped mid-trip: the loop still posts an OFF where the vehicle is. */
    parkPending: boolean("park_pending").notNull().default(false),
    progress: doublePrecision("progress").notNull().default(0),
    dataSetCount: integer("data_set_count").notNull().default(0),
    tripId: bigint("trip_id", { mode: "number" }).references(() => trips.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
  },
  (t) => [
    index("simulation_runs_vehicle_idx").on(t.vehicleId, t.createdAt, t.id),
    index("simulation_runs_due_idx").on(t.status, t.nextDueAt),
    // One running simulation per vehicle: two would interleave their trips.
    uniqueIndex("simulation_runs_vehicle_running_key")
      .on(t.vehicleId)
      .where(sql`${t.status} = 'running'`),
  ],
);
