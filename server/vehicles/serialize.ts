import { formatDateTime } from "@/common/http/datetime";
import type { LocationPrecision } from "@/common/oauth/grant-scope";
import { positionAt } from "@/common/oauth/location-precision";
import type { VehicleRow } from "./queries";
import type { VehicleOut } from "./schemas";

export const UNIDENTIFIED = "Unidentified Vehicle";

// "YEAR MAKE MODEL" when known, else "Unidentified Vehicle" (docs/api.md#accounts-and-vehicles).
export function vehicleName(row: Pick<VehicleRow, "year" | "make" | "model">): string {
  const parts = [row.year, row.make, row.model].filter((p): p is string => Boolean(p));
  return parts.length > 0 ? parts.join(" ") : UNIDENTIFIED;
}

/** The vehicle as an app with this location precision sees it (docs/oauth.md#scopes). */
export function serializeVehicle(row: VehicleRow, precision: LocationPrecision): VehicleOut {
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
    lastWaypoint: positionAt(
      hasWaypoint
        ? { timestamp: formatDateTime(row.lastWaypointAt!), latitude: row.lastLatitude!, longitude: row.lastLongitude! }
        : null,
      precision,
    ),
    locationPaused: row.locationPaused,
    running: row.running,
    lastRunningTimestamp: formatDateTime(row.lastRunningAt),
    year: row.year,
    make: row.make,
    model: row.model,
  };
}
