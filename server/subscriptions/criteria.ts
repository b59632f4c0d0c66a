import type { LatLng } from "@/common/geo/polygon";
import type { FieldError } from "@/common/http/errors";
import type { EventType } from "@/common/subscriptions/event-types";
import type { Criteria, Day } from "./schemas";

// Which criteria each type needs (docs/subscriptions.md), with their defaults. Only the type's own fields
// are stored; others sent in a body are ignored like any unknown member.

// A geofence is a circle (origin, radius in miles) or a polygon (docs/subscriptions.md#polygons), never both.
export type GeofenceCriteria = (
  | { origin: LatLng; radius: number; polygon?: undefined }
  | { polygon: LatLng[]; origin?: undefined; radius?: undefined }
) & {
  boundaryCondition: "INSIDE" | "OUTSIDE";
  ignitionStatus: IgnitionFilter;
};
export type NumericCriteria = { dataKey: string; thresholdValue: number; relationship: "ABOVE" | "BELOW" | "EQUALTO" };
export type TimeOfDayCriteria = {
  startTime: string;
  endTime: string;
  daysOfWeek: Day[];
  ignitionStatus: IgnitionFilter;
};
export type IgnitionFilter = "ON" | "OFF" | "RUNNING" | "ANY";

export type StoredCriteria = Partial<
  { origin: LatLng; radius: number; polygon: LatLng[] } & Omit<GeofenceCriteria, "origin" | "radius" | "polygon"> &
    NumericCriteria &
    TimeOfDayCriteria
>;

const ALL_DAYS: Day[] = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];

const required = (fieldName: string): FieldError => ({
  fieldName,
  errorCode: "REQUIRED",
  errorDisplay: `${fieldName} is required for this event type.`,
});

/** The stored criteria for `type`, or the field errors that stop it. */
export function resolveCriteria(
  type: EventType,
  sent: Criteria,
): { criteria: StoredCriteria } | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  const need = <K extends keyof Criteria>(name: K): NonNullable<Criteria[K]> | undefined => {
    const value = sent[name];
    if (value === undefined || value === null) errors.push(required(name));
    return value ?? undefined;
  };

  let criteria: StoredCriteria = {};
  switch (type) {
    case "GEOFENCE": {
      const { polygon } = sent;
      if (polygon && (sent.origin || sent.radius !== undefined)) {
        errors.push({
          fieldName: "polygon",
          errorCode: "INVALID",
          errorDisplay: "Give either polygon or origin and radius, not both.",
        });
        break;
      }
      const origin = polygon ? undefined : need("origin");
      const radius = polygon ? undefined : need("radius");
      const boundaryCondition = need("boundaryCondition");
      if (!boundaryCondition) break;
      const common = { boundaryCondition, ignitionStatus: sent.ignitionStatus ?? "ANY" } as const;
      if (polygon) criteria = { polygon, ...common };
      else if (origin && radius !== undefined) criteria = { origin, radius, ...common };
      break;
    }
    case "NUMERICDATAKEY": {
      const dataKey = need("dataKey");
      const thresholdValue = need("thresholdValue");
      const relationship = need("relationship");
      if (dataKey && thresholdValue !== undefined && relationship) criteria = { dataKey, thresholdValue, relationship };
      break;
    }
    case "TIMEOFDAY": {
      const startTime = need("startTime");
      const endTime = need("endTime");
      if (startTime && endTime && startTime === endTime) {
        errors.push({
          fieldName: "endTime",
          errorCode: "INVALID",
          errorDisplay: "endTime must differ from startTime (the allowed window would be empty or the whole day).",
        });
      }
      // "Driven outside the window": by default only data sets with the ignition on count.
      if (startTime && endTime)
        criteria = {
          startTime,
          endTime,
          daysOfWeek: sent.daysOfWeek ?? ALL_DAYS,
          ignitionStatus: sent.ignitionStatus ?? "ON",
        };
      break;
    }
    default:
      break;
  }
  return errors.length > 0 ? { errors } : { criteria };
}

/**
 * The criteria an update checks: the stored ones with the body's over them. A geofence changes
 * shape whole: a polygon sent replaces a stored circle, an origin or radius sent a stored polygon.
 */
export function mergeCriteria(stored: StoredCriteria, sent: Criteria): Criteria {
  const kept: Criteria = { ...stored };
  if (sent.polygon !== undefined) {
    delete kept.origin;
    delete kept.radius;
  }
  if (sent.origin !== undefined || sent.radius !== undefined) delete kept.polygon;
  return { ...kept, ...sent };
}

/** The criteria a stored subscription shows, as the body it would be created with. */
export const criteriaOf = (stored: unknown): StoredCriteria =>
  stored && typeof stored === "object" ? (stored as StoredCriteria) : {};
