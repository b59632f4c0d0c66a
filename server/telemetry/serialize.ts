import type { dataPoints, dataSets, trips } from "@/db/schema";
import { formatDateTime } from "@/common/http/datetime";
import type { LocationPrecision } from "@/common/oauth/grant-scope";
import { positionAt, waypointValueAt } from "@/common/oauth/location-precision";
import { LOCATION_KEYS, WAYPOINT_KEY, translateValue } from "@/common/telemetry/keys";
import type { DataPointOut, DataSetOut, TripOut } from "./schemas";

type PointRow = Pick<typeof dataPoints.$inferSelect, "id" | "dataSetId" | "recordedAt" | "key" | "value">;
type SetRow = typeof dataSets.$inferSelect;
type TripRow = typeof trips.$inferSelect;

/**
 * A data point as an app with this location precision sees it (docs/oauth.md#scopes), the one
 * place for every point on the wire (lists, data sets, trips' data): a GEN_WAYPOINT rounded
 * (approximate) or null (none) in `value` and `translatedValue`; a GEN_NEAREST_ADDRESS, which no
 * rounding makes approximate, null unless precise. Every other key is unchanged.
 */
export function pointAt<P extends { key: string; value: string | null; translatedValue: string | null }>(
  point: P,
  precision: LocationPrecision,
): P {
  if (precision === "precise" || !LOCATION_KEYS.has(point.key)) return point;
  const value = point.key === WAYPOINT_KEY && point.value !== null ? waypointValueAt(point.value, precision) : null;
  return { ...point, value, translatedValue: value };
}

export function serializePoint(p: PointRow, precision: LocationPrecision): DataPointOut {
  return pointAt(
    {
      id: p.id,
      dataSetId: p.dataSetId,
      timestamp: formatDateTime(p.recordedAt),
      key: p.key,
      value: p.value,
      translatedValue: translateValue(p.key, p.value),
    },
    precision,
  );
}

export function serializeDataSet(s: SetRow, points: PointRow[], precision: LocationPrecision): DataSetOut {
  return {
    id: s.id,
    vehicleId: s.vehicleId,
    tripId: s.tripId,
    timestamp: formatDateTime(s.recordedAt),
    ignitionStatus: s.ignitionStatus,
    deviceId: s.deviceId,
    vin: s.vin,
    datum: points.map((p) => serializePoint(p, precision)),
  };
}

const waypoint = (at: Date | null, latitude: number | null, longitude: number | null) =>
  at && latitude !== null && longitude !== null ? { timestamp: formatDateTime(at), latitude, longitude } : null;

/**
 * A trip as an app with this precision sees it: approximate keeps start and end (rounded) and
 * mileage but no path, so its data sets come without their location points; none has no
 * start or end position either (null).
 */
export function serializeTrip(t: TripRow, precision: LocationPrecision, data?: DataSetOut[]): TripOut {
  const withoutPath = (sets: DataSetOut[]) =>
    precision === "precise"
      ? sets
      : sets.map((s) => ({ ...s, datum: s.datum.filter((p) => !LOCATION_KEYS.has(p.key)) }));
  return {
    id: t.id,
    vehicleId: t.vehicleId,
    startTime: formatDateTime(t.startTime),
    endTime: formatDateTime(t.endTime),
    mileage: t.mileage,
    startWaypoint: positionAt(waypoint(t.startWaypointAt, t.startLatitude, t.startLongitude), precision),
    endWaypoint: positionAt(waypoint(t.endWaypointAt, t.endLatitude, t.endLongitude), precision),
    ...(data ? { data: withoutPath(data) } : {}),
  };
}
