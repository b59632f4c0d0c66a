import type { Tx } from "@/db/client";
import type { AccountScope } from "@/server/accounts/queries";
import { uniqueError } from "@/common/http/errors";
import { assignDeviceRow, insertDevice, isVehicleInScope, lockDevice, lockVehicle, unassignDevicesOf } from "./queries";

export const deviceInUse = () => uniqueError("deviceId", "This device is assigned to another vehicle.");

// Puts device `serial` into `vehicle` inside the caller's transaction (docs/api.md#accounts-and-vehicles): a device
// on another vehicle moves only when both vehicles allow auto-assignment and the caller may see
// the other vehicle (so one partner can never take a device from another's car); else 409.
export async function assignDevice(
  tx: Tx,
  {
    scope,
    vehicle,
    serial,
  }: { scope: AccountScope; vehicle: { id: number; autoAssignDevice: boolean }; serial: string },
): Promise<void> {
  const device = await lockDevice(tx, { environment: scope.environment, serial });
  if (device?.vehicleId === vehicle.id) return;

  if (device && device.vehicleId !== null) {
    const other = await lockVehicle(tx, { id: device.vehicleId });
    const movable =
      other !== null &&
      other.autoAssignDevice &&
      vehicle.autoAssignDevice &&
      (await isVehicleInScope(tx, { scope, id: other.id }));
    if (!movable) throw deviceInUse();
  }

  await unassignDevicesOf(tx, { vehicleId: vehicle.id });
  if (device) await assignDeviceRow(tx, { deviceId: device.id, vehicleId: vehicle.id });
  else await insertDevice(tx, { environment: scope.environment, serial, vehicleId: vehicle.id });
}
