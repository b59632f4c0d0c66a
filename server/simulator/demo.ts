import { and, eq } from "drizzle-orm";
import { db } from "@/db/client";
import { devices, vehicles } from "@/db/schema";
import { uniqueViolation } from "@/server/http/db-errors";
import { logInfo } from "@/server/log";
import { findTemplate, templateWay } from "./geometry";
import { routeLength } from "./model";
import { findRunningRunOf, insertRun } from "./queries";
import { DEMO_TEMPLATE } from "./templates";

// The demo vehicle drives the Columbus downtown loop in real time, a data set every 5 s, lap after
// lap, so a newcomer sees it move within a minute of `npm start`. Idempotent: a restart leaves a
// running demo run alone (it resumes), and starts one only when none is running.

export const DEMO_COLLECTION_PERIOD = 5;
export const DEMO_SEED = 7;

export async function ensureDemoRun(demo: { appId: number; credentialId: number; clientId: string; deviceSerial: string }): Promise<"started" | "running" | "no-vehicle"> {
  const [vehicle] = await db()
    .select({ id: vehicles.id, accountId: vehicles.accountId })
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
      params: { events: [], lowBattery: false, engineData: true, fuelLevel: null },
      lapStartedAt: now,
      nextDueAt: now,
    });
  } catch (error) {
    // Another process started it at the same moment.
    if (uniqueViolation(error) === "simulation_runs_vehicle_running_key") return "running";
    throw error;
  }
  logInfo("demo simulation started", { vehicleId: vehicle.id, template: DEMO_TEMPLATE });
  return "started";
}
