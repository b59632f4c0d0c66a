import { formatDateTime } from "@/common/http/datetime";
import type { VehicleRow } from "./queries";
import type { VehicleOut } from "./schemas";

export const UNIDENTIFIED = "Unidentified Vehicle";

// "YEAR MAKE MODEL" when known, else "Unidentified Vehicle" (docs/api.md#accounts-and-vehicles).
export function vehicleName(row: Pick<VehicleRow, "year" | "make" | "model">): string {
  const parts = [row.year, row.make, row.model].filter((p): p is string => Boolean(p));
  return parts.length > 0 ? parts.join(" ") : UNIDENTIFIED;
}

export function serializeVehicle(row: VehicleRow): VehicleOut {
  const hasWaypoint = row.lastWaypointAt !== null && row.lastLatitude !== null && row.lastLongitude !== null;
  return {
    vehicleId: row.id,
    accountId: row.accountId,
    name: vehicleName(row),
    deviceId: row.deviceSerial,
    vin: row.vin,
    label: row.label,
    autoAssignDevice: row.autoAssignDevice,
    mileage: row.mileage,
    lastWaypoint: hasWaypoint
      ? { timestamp: formatDateTime(row.lastWaypointAt!), latitude: row.lastLatitude!, longitude: row.lastLongitude! }
      : null,
    running: row.running,
    lastRunningTimestamp: formatDateTime(row.lastRunningAt),
    year: row.year,
    make: row.make,
    model: row.model,
  };
}
