import type { dataPoints, dataSets, trips } from "@/db/schema";
import { formatDateTime } from "@/common/http/datetime";
import { translateValue } from "./keys";
import type { DataPointOut, DataSetOut, TripOut } from "./schemas";

type PointRow = Pick<typeof dataPoints.$inferSelect, "id" | "dataSetId" | "recordedAt" | "key" | "value">;
type SetRow = typeof dataSets.$inferSelect;
type TripRow = typeof trips.$inferSelect;

export function serializePoint(p: PointRow): DataPointOut {
  return {
    id: p.id,
    dataSetId: p.dataSetId,
    timestamp: formatDateTime(p.recordedAt),
    key: p.key,
    value: p.value,
    translatedValue: translateValue(p.key, p.value),
  };
}

export function serializeDataSet(s: SetRow, points: PointRow[]): DataSetOut {
  return {
    id: s.id,
    vehicleId: s.vehicleId,
    tripId: s.tripId,
    timestamp: formatDateTime(s.recordedAt),
    ignitionStatus: s.ignitionStatus,
    deviceId: s.deviceId,
    vin: s.vin,
    datum: points.map(serializePoint),
  };
}

const waypoint = (at: Date | null, latitude: number | null, longitude: number | null) =>
  at && latitude !== null && longitude !== null ? { timestamp: formatDateTime(at), latitude, longitude } : null;

export function serializeTrip(t: TripRow, data?: DataSetOut[]): TripOut {
  return {
    id: t.id,
    vehicleId: t.vehicleId,
    startTime: formatDateTime(t.startTime),
    endTime: formatDateTime(t.endTime),
    mileage: t.mileage,
    startWaypoint: waypoint(t.startWaypointAt, t.startLatitude, t.startLongitude),
    endWaypoint: waypoint(t.endWaypointAt, t.endLatitude, t.endLongitude),
    ...(data ? { data } : {}),
  };
}
