import type { FieldError } from "@/common/http/errors";
import type { EventType } from "@/common/subscriptions/event-types";
import type { Criteria, Day } from "./schemas";

// Which criteria each type needs (docs/subscriptions.md), with their defaults. Only the type's own fields
// are stored; others sent in a body are ignored like any unknown member.

export type GeofenceCriteria = {
  origin: { latitude: number; longitude: number };
  radius: number;
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

export type StoredCriteria = Partial<GeofenceCriteria & NumericCriteria & TimeOfDayCriteria>;

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
      const origin = need("origin");
      const radius = need("radius");
      const boundaryCondition = need("boundaryCondition");
      if (origin && radius !== undefined && boundaryCondition) {
        criteria = { origin, radius, boundaryCondition, ignitionStatus: sent.ignitionStatus ?? "ANY" };
      }
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

/** The criteria a stored subscription shows, as the body it would be created with. */
export const criteriaOf = (stored: unknown): StoredCriteria =>
  stored && typeof stored === "object" ? (stored as StoredCriteria) : {};
