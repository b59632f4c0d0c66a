import type { DataSetInput } from "@/server/telemetry/schemas";
import type { IgnitionStatus } from "./ignition";
import { dataPointsOf } from "./protocols/data-points";
import type { DeviceRecord } from "./protocols/record";

// A device's records as the data sets ingest takes from an API post (docs/devices.md#records-and-data-points):
// at the fix's time, with the status the ignition rules gave (ignition.ts), the record's data points
// at the set's own time, and the device's id as the set's deviceId. The decoders have already
// refused what a post's schema would (a key or value too long, an impossible position, a time more
// than 24 hours ahead: protocols/data-points.ts), and the 5 minutes the API allows ahead do not
// apply: a tracker's clock is what it is, and it cannot be told.

export function dataSetsOf(records: readonly DeviceRecord[], statuses: readonly IgnitionStatus[]): DataSetInput[] {
  return records.map((record, i) => ({
    timestamp: record.fixTime,
    ignitionStatus: statuses[i]!,
    datum: dataPointsOf(record),
    deviceId: record.deviceId,
  }));
}
