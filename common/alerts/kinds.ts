import { z } from "zod";
import { timeZone } from "@/common/accounts/schemas";

// The closed list of alert kinds a driver may choose (docs/alerts.md), what the settings page shows
// for each, and which have a threshold. Shared with the browser: the settings form is built from it.
// How each kind is evaluated is server/alerts/kinds.ts.

export const ALERT_KINDS = [
  "IGNITION_ON",
  "PLACE_ENTERED",
  "PLACE_LEFT",
  "LOW_BATTERY",
  "TROUBLE_CODE",
  "HARSH_DRIVING",
  "TOWING",
  "DEVICE_OFFLINE",
  "SPEEDING",
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

const CHANNELS = ["email", "browser"] as const;
export type AlertChannel = (typeof CHANNELS)[number];

export const SPEED_UNITS = ["mph", "km/h"] as const;
export type SpeedUnit = (typeof SPEED_UNITS)[number];

type Threshold = { label: string; unit: "speed" | "minutes"; min: number; max: number; default: number };

export const KIND_INFO: Record<AlertKind, { label: string; hint: string; threshold?: Threshold }> = {
  IGNITION_ON: { label: "Ignition on", hint: "The vehicle is switched on." },
  PLACE_ENTERED: { label: "Place entered", hint: "The vehicle arrives at one of your places." },
  PLACE_LEFT: { label: "Place left", hint: "The vehicle leaves one of your places." },
  LOW_BATTERY: { label: "Low battery", hint: "The vehicle's battery is below 12.0 V." },
  TROUBLE_CODE: { label: "Trouble code", hint: "The vehicle reports a diagnostic trouble code." },
  HARSH_DRIVING: { label: "Harsh driving or impact", hint: "Harsh braking, acceleration, cornering, or an impact." },
  TOWING: { label: "Towing", hint: "The vehicle moves with the ignition off." },
  DEVICE_OFFLINE: {
    label: "Device offline",
    hint: "The device has sent nothing for longer than the time you choose.",
    threshold: { label: "Offline for more than (minutes)", unit: "minutes", min: 5, max: 10_080, default: 60 },
  },
  SPEEDING: {
    label: "Speed above a limit",
    hint: "The vehicle goes faster than the limit you choose.",
    threshold: { label: "Speed limit", unit: "speed", min: 5, max: 300, default: 70 },
  },
};

const clock = z
  .string()
  .trim()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Enter a time as HH:MM (00:00–23:59).");

/** One kind's preference as the settings form sends it. */
const preferenceInput = z.object({
  kind: z.enum(ALERT_KINDS),
  email: z.boolean(),
  browser: z.boolean(),
  threshold: z.number().finite().nullable().optional(),
  unit: z.enum(SPEED_UNITS).nullable().optional(),
});

/** The settings form: every kind's preference and the quiet hours (both times, or neither). */
export const alertSettingsInput = z
  .object({
    preferences: z.array(preferenceInput).max(ALERT_KINDS.length),
    quietHours: z
      .object({ from: clock, to: clock })
      .refine((q) => q.from !== q.to, {
        message: "Quiet hours must end at another time than they start.",
        path: ["to"],
      })
      .nullable(),
    /** The browser's zone, saved on the account when it has none (quiet hours need one). */
    browserTimeZone: timeZone.optional(),
  })
  .strict();

export const testAlertInput = z.object({ channel: z.enum(CHANNELS) }).strict();
