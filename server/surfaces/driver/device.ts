import { deviceEndpoints } from "@/server/devices/connect-info";
import { readDeviceStatus } from "@/server/devices/device-status";
import type { DriverSession } from "@/server/surfaces/driver/session";
import { driverPrincipal } from "./principal";

// The vehicle page's "Connect a device": the device's status through the same read as
// GET /vehicle/{id}/device with the owner's principal (another account's vehicle is a 404 there),
// and where the driver's environment's devices send to.
export async function driverDevice(session: DriverSession, vehicleId: number) {
  const status = await readDeviceStatus(driverPrincipal(session), String(vehicleId));
  return { status, endpoints: deviceEndpoints(session.environment) };
}
