import { db } from "@/db/client";
import { accountScope } from "@/server/accounts/service";
import { findAccount } from "@/server/accounts/queries";
import { uniqueViolation } from "@/db/errors";
import { notFound, validationError } from "@/common/http/errors";
import type { Page } from "@/common/http/paging";
import type { Principal } from "@/server/api-auth/principal";
import { grantFor, grantsFor } from "@/server/grants/grant-view";
import { assignDevice, deviceInUse } from "./devices";
import {
  deleteVehicleRow,
  findVehicle,
  findVehicleById,
  insertVehicle,
  unassignDevicesOf,
  updateVehicleRow,
  type VehicleRow,
} from "./queries";
import { listVehicles } from "./list-vehicles";
import type { CreateVehicleInput, UpdateVehicleInput } from "./schemas";
import { serializeVehicle } from "./serialize";
import { decodeVin } from "./vin";
import { notifyVehicleEvent } from "@/server/notifications/account-events";
import { deleteNotificationsOfVehicleSubscriptions } from "@/server/notifications/queries";

// year, make and model follow the VIN: decoded offline where they can be, cleared with it.
const fromVin = (vin: string | null) => (vin ? decodeVin(vin) : { year: null, make: null, model: null });

export async function listVisibleVehicles(principal: Principal, page: Page, order: "asc" | "desc" = "asc") {
  const { rows, total } = await listVehicles({ scope: accountScope(principal), page, order });
  const grantOf = await grantsFor(
    principal,
    rows.map((r) => r.accountId),
  );
  return { items: rows.map((r) => serializeVehicle(r, grantOf(r.accountId).location)), total };
}

/** One vehicle of the caller, as its account's grant lets the caller see it. */
export async function readVehicle(principal: Principal, ref: string) {
  return shown(principal, await getVisibleVehicle(principal, ref));
}

async function shown(principal: Principal, row: VehicleRow) {
  return serializeVehicle(row, (await grantFor(principal, row.accountId)).location);
}

export async function getVisibleVehicle(principal: Principal, ref: string) {
  const row = await findVehicle(db(), { scope: accountScope(principal), ref });
  if (!row) throw notFound("vehicle");
  return row;
}

// A device serial unique index is the final word when two requests race for one serial.
function translateDeviceRace(error: unknown): never {
  const constraint = uniqueViolation(error);
  if (constraint === "devices_env_serial_key" || constraint === "devices_vehicle_key") throw deviceInUse();
  throw error;
}

// A user token adds to its own account; a client-credentials token names one of its accounts.
async function targetAccountId(principal: Principal, requested: number | undefined): Promise<number> {
  if (principal.kind === "user") return principal.accountId;
  if (requested === undefined) {
    throw validationError([
      {
        fieldName: "accountId",
        errorCode: "REQUIRED",
        errorDisplay: "accountId is required with a client-credentials token.",
      },
    ]);
  }
  const account = await findAccount(db(), { scope: accountScope(principal), id: requested });
  if (!account) throw notFound("account");
  return account.id;
}

export async function createVehicle(principal: Principal, input: CreateVehicleInput) {
  const accountId = await targetAccountId(principal, input.accountId);
  const scope = accountScope(principal);
  try {
    const id = await db().transaction(async (tx) => {
      const autoAssignDevice = input.autoAssignDevice ?? true;
      const vehicleId = await insertVehicle(tx, {
        environment: principal.environment,
        accountId,
        vin: input.vin ?? null,
        ...fromVin(input.vin ?? null),
        label: input.label ?? null,
        autoAssignDevice,
        mileage: input.mileage ?? 0,
      });
      if (input.deviceId)
        await assignDevice(tx, { scope, vehicle: { id: vehicleId, autoAssignDevice }, serial: input.deviceId });
      await notifyVehicleEvent(tx, {
        environment: principal.environment,
        type: "VEHICLECREATED",
        accountId,
        vehicleId,
        at: new Date(),
      });
      return vehicleId;
    });
    return shown(principal, (await findVehicleById(db(), { id }))!);
  } catch (error) {
    translateDeviceRace(error);
  }
}

export async function updateVehicle(principal: Principal, ref: string, input: UpdateVehicleInput) {
  const scope = accountScope(principal);
  try {
    const id = await db().transaction(async (tx) => {
      const current = await findVehicle(tx, { scope, ref, forUpdate: true });
      if (!current) throw notFound("vehicle");
      const { deviceId, ...fields } = input;
      const values: Record<string, unknown> = Object.fromEntries(
        Object.entries(fields).filter(([, v]) => v !== undefined),
      );
      if (input.vin !== undefined && input.vin !== current.vin) Object.assign(values, fromVin(input.vin));
      if (Object.keys(values).length > 0) await updateVehicleRow(tx, { id: current.id, values });
      const autoAssignDevice = input.autoAssignDevice ?? current.autoAssignDevice;
      if (deviceId === null) await unassignDevicesOf(tx, { vehicleId: current.id });
      else if (deviceId !== undefined)
        await assignDevice(tx, { scope, vehicle: { id: current.id, autoAssignDevice }, serial: deviceId });
      return current.id;
    });
    return shown(principal, (await findVehicleById(db(), { id }))!);
  } catch (error) {
    translateDeviceRace(error);
  }
}

// Permanent; trips, data and the vehicle's own subscriptions go with it (foreign keys cascade), and
// so do those subscriptions' notifications. Notifications of the account's subscriptions that name
// the vehicle (its VEHICLECREATED, an account-wide WAYPOINT's) belong to the account: they stay
// readable under /account/{id}/eventNotification/ and their pending deliveries are still sent.
export async function deleteVehicle(principal: Principal, ref: string) {
  const vehicle = await getVisibleVehicle(principal, ref);
  await db().transaction(async (tx) => {
    await deleteNotificationsOfVehicleSubscriptions(tx, vehicle.id);
    if (!(await deleteVehicleRow(tx, { id: vehicle.id }))) throw notFound("vehicle");
    await notifyVehicleEvent(tx, {
      environment: principal.environment,
      type: "VEHICLEDELETED",
      accountId: vehicle.accountId,
      vehicleId: vehicle.id,
      at: new Date(),
    });
  });
}

/**
 * The driver's location pause (docs/driver-site.md#pause-location): only the owner sets it, from
 * the driver site; apps read `locationPaused` and cannot change it. Ingest reads the flag with the
 * vehicle, in the statement it already makes, and an update of the row changes its version, so no
 * post in flight writes past the switch.
 */
export async function setLocationPaused(principal: Principal & { kind: "user" }, ref: string, paused: boolean) {
  const vehicle = await getVisibleVehicle(principal, ref);
  await updateVehicleRow(db(), { id: vehicle.id, values: { locationPaused: paused } });
  return readVehicle(principal, String(vehicle.id));
}
