import { z } from "zod";
import { MAX_MILES, milesOfInput } from "@/common/telemetry/miles";
import { vinProblem } from "./vin";
import { booleanish, clearable, dateTimeOut, idParam, keep, numberish, optional, text } from "@/common/http/fields";

// Vehicle fields on the wire (docs/api.md#accounts-and-vehicles).

export const vin = text(17)
  .transform((v) => v.toUpperCase())
  .superRefine((v, ctx) => {
    const problem = vinProblem(v);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
/** The longest id a vehicle's deviceId may be: the gateway remembers no longer unknown id (devices/ingest/contacts.ts). */
export const LONGEST_DEVICE_ID = 64;
const deviceId = text(LONGEST_DEVICE_ID).pipe(
  z
    .string()
    .min(1)
    .regex(/^[A-Za-z0-9._:-]+$/, "May contain letters, digits and . _ : - only."),
);
const label = text(100);
// Miles to the thousandth: more decimals are rounded (10.2545 → 10.255), as the number was written.
const mileage = numberish
  .pipe(z.number().min(0, "Must not be negative.").max(MAX_MILES, `Must be at most ${MAX_MILES}.`))
  .transform(milesOfInput);

export const createVehicleBody = z.object({
  accountId: optional(idParam).describe(
    "The account to add the vehicle to. Required with a client-credentials token; a user token adds to its own account.",
  ),
  deviceId: optional(deviceId),
  vin: optional(vin),
  label: optional(label),
  autoAssignDevice: optional(booleanish),
  mileage: optional(mileage),
});

// Read-only members (vehicleId, name, lastWaypoint, locationPaused, running, …) are dropped, so an echoed
// object updates cleanly (docs/api.md#field-values).
export const updateVehicleBody = z.object({
  deviceId: clearable(deviceId),
  vin: clearable(vin),
  label: clearable(label),
  autoAssignDevice: keep(booleanish),
  mileage: keep(mileage),
});

export type CreateVehicleInput = z.output<typeof createVehicleBody>;
export type UpdateVehicleInput = z.output<typeof updateVehicleBody>;

// {vehicle-id} is the numeric vehicleId or the device serial (docs/api.md#accounts-and-vehicles).
export const vehicleRefParams = z.object({ vehicleId: z.string().min(1).max(64) });

const waypointOut = z.object({ timestamp: dateTimeOut, latitude: z.number(), longitude: z.number() });

export const vehicleOut = z.object({
  vehicleId: z.number().int(),
  accountId: z.number().int(),
  name: z.string(),
  deviceId: z.string().nullable(),
  vin: z.string().nullable(),
  label: z.string().nullable(),
  autoAssignDevice: z.boolean(),
  mileage: z.number(),
  // null also when the app's grant shows no location (docs/oauth.md#scopes).
  lastWaypoint: waypointOut.nullable(),
  // Set by the driver on the driver site; read-only to apps (dropped from update bodies).
  locationPaused: z.boolean(),
  running: z.boolean(),
  lastRunningTimestamp: dateTimeOut.nullable(),
  year: z.string().nullable(),
  make: z.string().nullable(),
  model: z.string().nullable(),
});

export type VehicleOut = z.infer<typeof vehicleOut>;
