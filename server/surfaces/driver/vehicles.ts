import { z } from "zod";
import type { DriverSession } from "@/server/surfaces/driver/session";
import { parseOrThrow } from "@/common/http/zod-errors";
import { tripEnds, type TripEnds } from "@/server/places/match";
import { listPlaces } from "@/server/places/service";
import { tripsOfVehicle } from "@/server/telemetry/service";
import { createVehicleBody, updateVehicleBody } from "@/server/vehicles/schemas";
import {
  createVehicle,
  deleteVehicle,
  listVisibleVehicles,
  readVehicle,
  setLocationPaused,
  updateVehicle,
} from "@/server/vehicles/service";
import { driverPrincipal } from "./principal";
import { iso, toDriverVehicle, type DriverVehicle } from "./views";

// The signed-in driver's vehicles, through the vehicle service (ownership, device rules, VIN
// decoding) exactly as a user token of the account would reach them. An id of another account's
// vehicle is a 404 there, before anything is read.

// The map shows every vehicle; the API's maximum page is far above what one driver owns.
const ALL = { limit: 500, offset: 0 };

export async function listDriverVehicles(session: DriverSession): Promise<DriverVehicle[]> {
  const { items } = await listVisibleVehicles(driverPrincipal(session), ALL);
  return items.map(toDriverVehicle);
}

export async function getDriverVehicle(session: DriverSession, vehicleId: number): Promise<DriverVehicle> {
  return toDriverVehicle(await readVehicle(driverPrincipal(session), String(vehicleId)));
}

// The API's update schema, so the site's field errors are the API's (the form sends label, vin,
// deviceId and autoAssignDevice; "" clears a text field).
export async function updateDriverVehicle(
  session: DriverSession,
  vehicleId: number,
  body: unknown,
): Promise<DriverVehicle> {
  const input = parseOrThrow(
    updateVehicleBody.pick({ deviceId: true, vin: true, label: true, autoAssignDevice: true }),
    body,
    "vehicle form",
  );
  return toDriverVehicle(await updateVehicle(driverPrincipal(session), String(vehicleId), input));
}

export async function deleteDriverVehicle(session: DriverSession, vehicleId: number): Promise<void> {
  await deleteVehicle(driverPrincipal(session), String(vehicleId));
}

export type TripSummary = {
  id: number;
  startTime: string;
  endTime: string | null;
  mileage: number | null;
  /** The driver's places it starts and ends in ("Home → Work"), or null. */
  ends: TripEnds | null;
};

// The account's places are read once for the page's trips, and each trip's first and last
// waypoint matched against them in memory.
export async function recentTrips(
  session: DriverSession,
  vehicleId: number,
  limit = 20,
): Promise<{ trips: TripSummary[]; total: number }> {
  const [{ items, total }, places] = await Promise.all([
    tripsOfVehicle(driverPrincipal(session), String(vehicleId), {
      includeData: false,
      page: { limit, offset: 0 },
      order: "desc",
    }),
    listPlaces(session.accountId),
  ]);
  return {
    trips: items.map((t) => ({
      id: t.id,
      startTime: iso(t.startTime)!,
      endTime: iso(t.endTime),
      mileage: t.mileage,
      ends: tripEnds(places, t.startWaypoint, t.endWaypoint),
    })),
    total,
  };
}

// The same schema as POST /vehicle/ with a user token: the vehicle joins the driver's account.
export async function addDriverVehicle(session: DriverSession, body: unknown): Promise<DriverVehicle> {
  const input = parseOrThrow(createVehicleBody.pick({ deviceId: true, vin: true, label: true }), body, "vehicle form");
  return toDriverVehicle(await createVehicle(driverPrincipal(session), input));
}

const pauseBody = z.object({ paused: z.boolean() });

/** The pause switch: `{"paused": true|false}`. */
export async function setDriverLocationPause(session: DriverSession, vehicleId: number, body: unknown) {
  const { paused } = parseOrThrow(pauseBody, body, "pause switch");
  const principal = driverPrincipal(session);
  if (principal.kind !== "user") throw new Error("the driver site acts for its account");
  return toDriverVehicle(await setLocationPaused(principal, String(vehicleId), paused));
}
