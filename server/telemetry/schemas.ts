import { z } from "zod";
import { bigIdParam, dateTimeOut, optional, text } from "@/common/http/fields";
import { DATE_TIME_MESSAGE, parseDateTime } from "@/common/http/datetime";
import { vin } from "@/server/vehicles/schemas";
import { NUMERIC_KEYS, WAYPOINT_KEY, parseWaypoint } from "@/common/telemetry/keys";

// Data sets on the wire (docs/device-data.md).

export const MAX_BATCH = 500;
const MAX_DATUM = 200;
const FUTURE_TOLERANCE_MS = 5 * 60_000;

// A device clock may run a little ahead; more than 5 minutes is a broken clock, and such data
// would freeze the vehicle's state at a time that has not come yet.
const deviceTime = z.string().transform((value, ctx) => {
  const date = parseDateTime(value);
  if (!date) {
    ctx.addIssue({ code: "custom", message: DATE_TIME_MESSAGE });
    return z.NEVER;
  }
  if (date.getTime() > Date.now() + FUTURE_TOLERANCE_MS) {
    ctx.addIssue({ code: "custom", message: "Must not be more than 5 minutes in the future." });
    return z.NEVER;
  }
  return date;
});

const datum = z
  .object({
    timestamp: optional(deviceTime),
    key: z
      .string()
      .trim()
      .max(64, "Must be at most 64 characters.")
      .regex(/^[A-Za-z][A-Za-z0-9_]*$/, "Must be a data key such as GEN_SPEED.")
      .transform((k) => k.toUpperCase()),
    // string, number or boolean; kept as text exactly as received.
    value: z
      .union([z.string().max(1000, "Must be at most 1000 characters."), z.number(), z.boolean()])
      .transform(String),
  })
  .superRefine((d, ctx) => {
    if (d.key === WAYPOINT_KEY) {
      const waypoint = parseWaypoint(d.value);
      if (typeof waypoint === "string") ctx.addIssue({ code: "custom", path: ["value"], message: waypoint });
    } else if (NUMERIC_KEYS.has(d.key) && !/^-?\d+(\.\d+)?$/.test(d.value.trim())) {
      ctx.addIssue({ code: "custom", path: ["value"], message: `${d.key} must be a number.` });
    }
  });

// A data point's time is its own only where it differs from its set's: devices stamp most points with
// their set's time, and a point that repeats it is kept as one without a time (the same thing
// everywhere: stored without a time of its own, answered with the set's). Ingest then asks each of a
// batch's 1,500 points whether it has a time of its own three times (plan.ts), which a missing time
// answers at once.
function withOwnTimesOnly<T extends { timestamp: Date; datum: { timestamp?: Date }[] }>(set: T): T {
  const at = set.timestamp.getTime();
  for (const d of set.datum) if (d.timestamp !== undefined && d.timestamp.getTime() === at) d.timestamp = undefined;
  return set;
}

// Compiled (zod's z.compile: the same results and errors, in about two thirds of the time): every
// device post is parsed with these.
const dataSetBody = z.compile(
  z
    .object({
      timestamp: deviceTime,
      ignitionStatus: z
        .string()
        .transform((s) => s.toUpperCase())
        .pipe(z.enum(["ON", "RUNNING", "OFF"], "Must be ON, RUNNING or OFF.")),
      datum: z.array(datum).max(MAX_DATUM, `At most ${MAX_DATUM} data points per data set.`).default([]),
      deviceId: optional(text(64)),
      vin: optional(vin),
    })
    .transform(withOwnTimesOnly),
);

export type DataSetInput = z.output<typeof dataSetBody>;

const dataSetBatch = z.compile(
  z
    .array(dataSetBody)
    .min(1, "Send at least one data set.")
    .max(MAX_BATCH, `At most ${MAX_BATCH} data sets per batch.`),
);

/** One data set, or the batch form: an array of up to 500 for one vehicle (as documented). */
export const dataSetPostDoc = z.union([dataSetBody, dataSetBatch]);

// A z.union would report a bad data set as one "body" error of the union; choosing the schema by
// the body's shape keeps the field errors (timestamp, 3.datum.0.value, …).
export const dataSetPostBody = z.unknown().transform((body, ctx): DataSetInput | DataSetInput[] => {
  const parsed = Array.isArray(body)
    ? dataSetBatch.safeParse(body, { reportInput: true })
    : dataSetBody.safeParse(body, { reportInput: true });
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue(issue as Parameters<typeof ctx.addIssue>[0]);
  return z.NEVER;
});

const waypointOut = z.object({ timestamp: dateTimeOut, latitude: z.number(), longitude: z.number() });

const dataPointOut = z.object({
  id: z.number().int(),
  dataSetId: z.number().int(),
  timestamp: dateTimeOut,
  key: z.string(),
  // null: a location point the app's grant does not show (docs/oauth.md#scopes).
  value: z.string().nullable(),
  translatedValue: z.string().nullable(),
});

/** A data point in a list of points, where the vehicle is not implied by a parent. */
export const vehiclePointOut = dataPointOut.extend({ vehicleId: z.number().int() });

export const dataSetOut = z.object({
  id: z.number().int(),
  vehicleId: z.number().int(),
  tripId: z.number().int().nullable(),
  timestamp: dateTimeOut,
  ignitionStatus: z.enum(["ON", "RUNNING", "OFF"]),
  deviceId: z.string().nullable(),
  vin: z.string().nullable(),
  datum: z.array(dataPointOut),
});

export const tripOut = z.object({
  id: z.number().int(),
  vehicleId: z.number().int(),
  startTime: dateTimeOut,
  endTime: dateTimeOut.nullable(),
  mileage: z.number().nullable(),
  startWaypoint: waypointOut.nullable(),
  endWaypoint: waypointOut.nullable(),
  data: z.array(dataSetOut).optional(),
});

export const vehicleDataParams = z.object({ vehicleId: z.string().min(1).max(64) });
export const tripParams = vehicleDataParams.extend({ tripId: bigIdParam });
export const dataSetParams = vehicleDataParams.extend({ dataSetId: bigIdParam });

export type DataPointOut = z.infer<typeof dataPointOut>;
export type DataSetOut = z.infer<typeof dataSetOut>;
export type TripOut = z.infer<typeof tripOut>;
