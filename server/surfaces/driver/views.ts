import { parseDateTime } from "@/common/http/datetime";
import type { VehicleOut } from "@/server/vehicles/schemas";

// What the driver site's pages and client components get: the API's vehicle with ISO times
// (the browser's Date parses them) instead of the wire DateTime.

export type DriverVehicle = {
  vehicleId: number;
  name: string;
  label: string | null;
  vin: string | null;
  deviceId: string | null;
  autoAssignDevice: boolean;
  mileage: number;
  running: boolean;
  lastRunningAt: string | null;
  lastWaypoint: { latitude: number; longitude: number; at: string } | null;
  /** The driver paused location: lastWaypoint is the last position before the pause. */
  locationPaused: boolean;
};

/** A wire DateTime (docs/api.md#datetime) as ISO 8601, or null. */
export const iso = (wire: string | null) => (wire ? (parseDateTime(wire)?.toISOString() ?? null) : null);

export function toDriverVehicle(v: VehicleOut): DriverVehicle {
  return {
    vehicleId: v.vehicleId,
    name: v.name,
    label: v.label,
    vin: v.vin,
    deviceId: v.deviceId,
    autoAssignDevice: v.autoAssignDevice,
    mileage: v.mileage,
    running: v.running,
    lastRunningAt: iso(v.lastRunningTimestamp),
    lastWaypoint: v.lastWaypoint
      ? { latitude: v.lastWaypoint.latitude, longitude: v.lastWaypoint.longitude, at: iso(v.lastWaypoint.timestamp)! }
      : null,
    locationPaused: v.locationPaused,
  };
}

/** The name a driver knows the vehicle by: its label, else the decoded type. */
export const vehicleTitle = (v: Pick<DriverVehicle, "label" | "name" | "vehicleId">) => v.label || v.name;
