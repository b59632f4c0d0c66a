import { deviceEndpoints } from "@/server/devices/connect-info";
import { deviceStatuses, type DeviceStatus } from "@/server/devices/device-status";
import { listVisibleVehicles } from "@/server/vehicles/service";
import { consolePrincipal } from "./principal";

// The devices of the app's sandbox vehicles, for "Connect a device" on the connected-accounts page:
// the vehicles the app sees (as its client-credentials token would), their devices' statuses in one
// read, and where sandbox devices send to.
export async function sandboxDevices(partnerUserId: number, appId: number) {
  const principal = await consolePrincipal(partnerUserId, appId, "sandbox");
  const { items: vehicles } = await listVisibleVehicles(principal, { limit: 500, offset: 0 });
  const statusOf = await deviceStatuses(
    "sandbox",
    vehicles.map((v) => v.deviceId),
  );
  const byVehicle = new Map<number, DeviceStatus>(vehicles.map((v) => [v.vehicleId, statusOf(v.deviceId)]));
  return { endpoints: deviceEndpoints("sandbox"), byVehicle };
}
