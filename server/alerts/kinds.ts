import type { AlertKind, SpeedUnit } from "@/common/alerts/kinds";
import type { EventType } from "@/common/subscriptions/event-types";
import type { StoredCriteria } from "@/server/subscriptions/criteria";
import { evaluateCondition, type Anchor } from "@/server/notifications/conditions";
import type { SetFacts } from "@/server/notifications/facts";

// Which conditions of the partner notifications' evaluation (server/notifications/conditions.ts)
// make each alert kind: an alert is the same condition on the same facts, read with the driver's
// criteria (a speed limit) instead of a subscription's. No rule of its own is written here.
// A kind that names several event types is triggered when any of them is met.

const KM_PER_MILE = 1.609344;

export type Preference = {
  kind: AlertKind;
  email: boolean;
  browser: boolean;
  threshold: number | null;
  unit: SpeedUnit | null;
};

type KindRule = {
  types: readonly EventType[];
  criteria?: (preference: Preference) => StoredCriteria;
};

/** The speed limit in mph, the unit of GEN_SPEED (docs/device-data.md). */
const limitMph = (p: Pick<Preference, "threshold" | "unit">) =>
  p.threshold === null ? null : p.unit === "km/h" ? p.threshold / KM_PER_MILE : p.threshold;

/**
 * The kinds evaluated on data sets. Places (PLACE_ENTERED, PLACE_LEFT) are GEOFENCE conditions on
 * the driver's places and come with them; DEVICE_OFFLINE is decided by the absence of data sets,
 * not by one, so it is not evaluated at ingest. Their preferences are kept all the same.
 */
const RULES: Partial<Record<AlertKind, KindRule>> = {
  IGNITION_ON: { types: ["IGNITIONSTATUS"] },
  LOW_BATTERY: { types: ["LOWBATTERY"] },
  TROUBLE_CODE: { types: ["TROUBLECODE"] },
  HARSH_DRIVING: {
    types: ["VEHICLEHARSHACCEL", "VEHICLEHARSHDECEL", "VEHICLEHARSHLEFT", "VEHICLEHARSHRIGHT", "VEHICLEIMPACT"],
  },
  TOWING: { types: ["VEHICLETOWED"] },
  SPEEDING: {
    types: ["NUMERICDATAKEY"],
    criteria: (p) => ({ dataKey: "GEN_SPEED", relationship: "ABOVE", thresholdValue: limitMph(p) ?? Infinity }),
  },
};

export const evaluatedAtIngest = (kind: AlertKind) => RULES[kind] !== undefined;

/**
 * Whether one data set triggers the kind for this preference: null when the set cannot say (no
 * speed in it). Towing's condition keeps a parking position (anchor) from set to set; while
 * location is paused the sets carry no position, and only a tow the device reports is seen.
 */
export function kindCondition(
  preference: Preference,
  facts: SetFacts,
  context: { timeZone: string | null; anchor: Anchor },
): { met: boolean | null; anchor?: Anchor } {
  const rule = RULES[preference.kind];
  if (!rule) return { met: null };
  const criteria = rule.criteria?.(preference) ?? {};
  let met: boolean | null = null;
  let anchor: Anchor | undefined;
  for (const type of rule.types) {
    const outcome = evaluateCondition(type, criteria, facts, context);
    if (outcome.anchor !== undefined) anchor = outcome.anchor;
    if (outcome.met === true) met = true;
    else if (outcome.met === false && met === null) met = false;
  }
  return anchor === undefined ? { met } : { met, anchor };
}

const HARSH_WORDS: Record<string, string> = {
  VEHICLE_EVENT_HARSH_ACCEL: "Harsh acceleration",
  VEHICLE_EVENT_HARSH_DECEL: "Harsh braking",
  VEHICLE_EVENT_HARSH_LEFT: "Harsh left turn",
  VEHICLE_EVENT_HARSH_RIGHT: "Harsh right turn",
  VEHICLE_EVENT_HARSH_IMPACT: "Impact",
};

const oneDecimal = (n: number) => (Math.round(n * 10) / 10).toString();

/** What the alert says, and the values it records, from the set that opened its episode. */
export function describeAlert(
  preference: Preference,
  facts: SetFacts,
): { summary: string; details: Record<string, unknown> } {
  switch (preference.kind) {
    case "IGNITION_ON":
      return { summary: "Ignition on", details: { ignitionStatus: facts.ignition } };
    case "LOW_BATTERY": {
      const volts = facts.numbers.get("GEN_VOLTAGE");
      return {
        summary: `Low battery: ${volts === undefined ? "?" : oneDecimal(volts)} V`,
        details: { recordedVoltage: volts ?? null },
      };
    }
    case "TROUBLE_CODE":
      return {
        summary: `Trouble code ${facts.troubleCodes.join(", ")}`,
        details: { troubleCodes: facts.troubleCodes },
      };
    case "HARSH_DRIVING": {
      const events = [...facts.events].filter((e) => e in HARSH_WORDS);
      return {
        summary: events.map((e) => HARSH_WORDS[e]).join(", ") || "Harsh driving",
        details: { events },
      };
    }
    case "TOWING":
      return { summary: "The vehicle may be being towed", details: {} };
    case "SPEEDING": {
      const mph = facts.numbers.get("GEN_SPEED") ?? 0;
      const unit = preference.unit ?? "mph";
      const speed = unit === "km/h" ? mph * KM_PER_MILE : mph;
      return {
        summary: `Speed ${Math.round(speed)} ${unit}, above your limit of ${preference.threshold} ${unit}`,
        details: { recordedSpeed: Math.round(speed * 10) / 10, limit: preference.threshold, unit },
      };
    }
    default:
      return { summary: preference.kind, details: {} };
  }
}
