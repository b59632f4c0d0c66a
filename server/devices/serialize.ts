import { formatDateTime } from "@/common/http/datetime";
import type { DeviceStatus } from "./device-status";
import type { DeviceOut } from "./schemas";

/** A device's status on the wire: DateTimes, the refusal's time and words. */
export function serializeDeviceStatus(status: DeviceStatus): DeviceOut {
  return {
    deviceId: status.deviceId,
    protocol: status.protocol,
    connected: status.connected,
    lastContact: formatDateTime(status.lastContactAt),
    lastRecordTime: formatDateTime(status.lastRecordAt),
    recordsToday: status.recordsToday,
    lastRefusal: status.lastRefusal
      ? { time: formatDateTime(status.lastRefusal.at), reason: status.lastRefusal.reason }
      : null,
  };
}
