import { and, count, eq } from "drizzle-orm";
import { db } from "@/db/client";
import { devices, simulationRuns, vehicles } from "@/db/schema";
import { uniqueViolation } from "@/db/errors";
import { logger } from "@/server/platform/log";
import type { Principal } from "@/server/api-auth/principal";
import { findTemplate, templateWay } from "./geometry";
import { routeLength } from "./model";
import { findRunningRunOf, insertRun } from "./queries";
import { startSimulation } from "./service";
import { DEMO_TEMPLATE } from "./templates";

// The demo vehicle drives the Columbus downtown loop in real time, a data set every 5 s, lap after
// lap, so a newcomer sees it move within a minute of `npm start`. Idempotent: a restart leaves a
// running demo run alone (it resumes), and starts one only when none is running.

const DEMO_COLLECTION_PERIOD = 5;
const DEMO_SEED = 7;

export async function ensureDemoRun(demo: {
  appId: number;
  credentialId: number;
  clientId: string;
  deviceSerial: string;
}): Promise<"started" | "running" | "no-vehicle"> {
  const [vehicle] = await db()
    .select({ id: vehicles.id, accountId: vehicles.accountId, mileage: vehicles.mileage })
    .from(devices)
    .innerJoin(vehicles, eq(vehicles.id, devices.vehicleId))
    .where(and(eq(devices.environment, "sandbox"), eq(devices.serial, demo.deviceSerial)))
    .limit(1);
  if (!vehicle) return "no-vehicle";
  if (await findRunningRunOf(db(), { vehicleId: vehicle.id })) return "running";
  const way = templateWay(findTemplate(DEMO_TEMPLATE)!);
  const now = new Date();
  try {
    await insertRun(db(), {
      environment: "sandbox",
      vehicleId: vehicle.id,
      appId: demo.appId,
      credentialId: demo.credentialId,
      clientId: demo.clientId,
      accountId: vehicle.accountId,
      templateId: DEMO_TEMPLATE,
      network: way.network.id,
      geometry: way.geometry,
      lengthMeters: routeLength(way.geometry),
      mode: "realtime",
      status: "running",
      collectionPeriod: DEMO_COLLECTION_PERIOD,
      seed: DEMO_SEED,
      repeat: true,
      params: { events: [], lowBattery: false, engineData: true, fuelLevel: null, odometer: vehicle.mileage },
      lapStartedAt: now,
      nextDueAt: now,
    });
  } catch (error) {
    // Another process started it at the same moment.
    if (uniqueViolation(error) === "simulation_runs_vehicle_running_key") return "running";
    throw error;
  }
  logger.info({ vehicleId: vehicle.id, template: DEMO_TEMPLATE }, "demo simulation started");
  return "started";
}

// The finished trip a newcomer can replay: yesterday's drive of another vehicle of the demo
// driver, from Ohio State to Worthington, posted through the simulator's instant mode (the same
// ingest as a device's data). Once: only while that vehicle has no simulation at all, so a restart
// adds nothing and a data dir seeded before this existed gains it on its next start.
const DEMO_TRIP = { template: "columbus-osu-worthington", seed: 11, collectionPeriod: 15, daysAgo: 1 } as const;

export async function ensureDemoTrip(
  demo: { appId: number; credentialId: number; clientId: string; vehicleId: number },
  now = new Date(),
): Promise<"created" | "exists"> {
  const [runs] = await db()
    .select({ n: count() })
    .from(simulationRuns)
    .where(eq(simulationRuns.vehicleId, demo.vehicleId));
  if (runs && runs.n > 0) return "exists";
  const principal: Principal = {
    kind: "client",
    accountId: null,
    grant: null,
    environment: "sandbox",
    via: "demo",
    appId: demo.appId,
    credentialId: demo.credentialId,
    clientId: demo.clientId,
    dataProvider: false,
  };
  // Yesterday at 8:30 New York time (13:30 UTC is 8:30 EST, 9:30 EDT): a morning commute.
  const start = new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - DEMO_TRIP.daysAgo, 13, 30),
  );
  const run = await startSimulation(principal, String(demo.vehicleId), {
    mode: "instant",
    templateId: DEMO_TRIP.template,
    seed: DEMO_TRIP.seed,
    collectionPeriod: DEMO_TRIP.collectionPeriod,
    startTime: start,
  });
  logger.info({ vehicleId: demo.vehicleId, tripId: run.tripId, template: DEMO_TRIP.template }, "demo trip recorded");
  return "created";
}
