import { db } from "@/db/client";
import type { Environment } from "@/db/schema";
import type { Principal } from "@/server/api-auth/principal";
import { env } from "@/server/platform/env";
import { getVisibleVehicle } from "@/server/vehicles/service";
import { findContacts, type ContactRow } from "./contact-reads";
import { UNKNOWN_ID } from "./ingest/contacts";

// What a vehicle's device looks like from here (docs/devices.md#seeing-the-device): the gateway's
// contact row of the id the vehicle names, in the vehicle's environment. The row is kept per id, not
// per vehicle, so a vehicle that names an id sees what the gateway saw of it before, refusals
// included: "this device tried to connect, but no vehicle had that id yet". Read by
// GET /vehicle/{id}/device (the same callers as the vehicle: docs/decisions/0142-seeing-the-device.md),
// by the driver site's vehicle page and by the console's sandbox vehicles.

export type DeviceProtocol = ContactRow["protocol"];

export type DeviceRefusal = {
  at: Date;
  /** Why, as the gateway recorded it: "no vehicle has this deviceId", "bad CRC", … */
  reason: string;
  /** The refusal of an id no vehicle named at the time. */
  unknownId: boolean;
};

export type DeviceStatus = {
  /** The vehicle's deviceId; null: the vehicle names no device, and the rest is empty. */
  deviceId: string | null;
  /** null until the device is heard from. */
  protocol: DeviceProtocol | null;
  /** An open TCP connection now (OsmAnd's requests never hold one). */
  connected: boolean;
  lastContactAt: Date | null;
  lastRecordAt: Date | null;
  /** Records stored today (UTC), resends of stored ones not counted. */
  recordsToday: number;
  lastRefusal: DeviceRefusal | null;
};

const never = (deviceId: string | null): DeviceStatus => ({
  deviceId,
  protocol: null,
  connected: false,
  lastContactAt: null,
  lastRecordAt: null,
  recordsToday: 0,
  lastRefusal: null,
});

function statusOf(deviceId: string, row: ContactRow | undefined): DeviceStatus {
  if (!row) return never(deviceId);
  const { lastRefusalAt: at, lastRefusalReason: reason } = row;
  return {
    deviceId,
    protocol: row.protocol,
    connected: row.connected,
    lastContactAt: row.lastContactAt,
    lastRecordAt: row.lastRecordAt,
    recordsToday: row.recordsToday,
    lastRefusal: at && reason !== null ? { at, reason, unknownId: reason === UNKNOWN_ID } : null,
  };
}

/** The devices the given ids name in an environment, each id's status (a vehicle without one: null). */
export async function deviceStatuses(
  environment: Environment,
  deviceIds: (string | null)[],
): Promise<(deviceId: string | null) => DeviceStatus> {
  const ids = [...new Set(deviceIds.filter((id): id is string => id !== null))];
  const rows = await findContacts(db(), { environment, deviceIds: ids, idleSeconds: env().DEVICE_IDLE_SECONDS });
  const byId = new Map(rows.map((r) => [r.deviceId, r]));
  return (deviceId) => (deviceId === null ? never(null) : statusOf(deviceId, byId.get(deviceId)));
}

/** The device of one vehicle the caller may see (by vehicleId or deviceId): a 404 for any other. */
export async function readDeviceStatus(principal: Principal, ref: string): Promise<DeviceStatus> {
  const vehicle = await getVisibleVehicle(principal, ref);
  const of = await deviceStatuses(principal.environment, [vehicle.deviceSerial]);
  return of(vehicle.deviceSerial);
}
