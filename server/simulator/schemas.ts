import { z } from "zod";
import {
  booleanish,
  dateTime,
  dateTimeOut,
  idParam,
  integerish,
  numberish,
  optional,
  text,
} from "@/common/http/fields";
import { EVENT_KEYS } from "./model";

// The simulator API on the wire (docs/simulator.md).

const latitude = numberish.pipe(
  z.number().min(-90, "Must be between -90 and 90.").max(90, "Must be between -90 and 90."),
);
const longitude = numberish.pipe(
  z.number().min(-180, "Must be between -180 and 180.").max(180, "Must be between -180 and 180."),
);
const pointIn = z.object({ latitude, longitude });
export type PointIn = z.output<typeof pointIn>;

const MAX_POLYLINE = 5000;
const MAX_VIA = 10;

/** Where to drive: start and end (optionally via points), an explicit polyline, a saved route or a template. */
const wayFields = {
  start: optional(pointIn),
  end: optional(pointIn),
  via: optional(z.array(pointIn).max(MAX_VIA, `At most ${MAX_VIA} via points.`)),
  route: optional(
    z.array(pointIn).min(2, "A route needs at least two points.").max(MAX_POLYLINE, `At most ${MAX_POLYLINE} points.`),
  ),
};

type WayInput = {
  start?: PointIn;
  end?: PointIn;
  via?: PointIn[];
  route?: PointIn[];
  routeId?: number;
  templateId?: string;
};

function checkWay(v: WayInput, ctx: z.RefinementCtx, allowSaved: boolean) {
  const given = [
    v.start || v.end ? "start/end" : null,
    v.route ? "route" : null,
    v.routeId !== undefined ? "routeId" : null,
    v.templateId !== undefined ? "templateId" : null,
  ].filter(Boolean);
  const ways = allowSaved ? "start and end, route, routeId or templateId" : "start and end, or route";
  if (given.length === 0) ctx.addIssue({ code: "custom", path: ["start"], message: `Give ${ways}.` });
  else if (given.length > 1)
    ctx.addIssue({
      code: "custom",
      path: [given[1] === "start/end" ? "start" : given[1]!],
      message: `Give only one of ${ways}.`,
    });
  else if (given[0] === "start/end") {
    // Reported as zod reports a missing field, so the answer says REQUIRED (common/http/zod-errors.ts).
    if (!v.start)
      ctx.addIssue({
        code: "invalid_type",
        expected: "object",
        input: undefined,
        path: ["start"],
        message: "start is required with end.",
      });
    if (!v.end)
      ctx.addIssue({
        code: "invalid_type",
        expected: "object",
        input: undefined,
        path: ["end"],
        message: "end is required with start.",
      });
  }
  if (v.via && !(v.start && v.end))
    ctx.addIssue({ code: "custom", path: ["via"], message: "via goes with start and end." });
}

export const simulationBody = z
  .object({
    mode: z.enum(["realtime", "instant"], "Must be realtime or instant."),
    ...wayFields,
    routeId: optional(idParam),
    templateId: optional(text(64).min(1)),
    speedUp: optional(integerish.pipe(z.number().int().min(1, "Must be 1–60.").max(60, "Must be 1–60."))),
    collectionPeriod: optional(
      integerish.pipe(z.number().int().min(1, "Must be 1–300 seconds.").max(300, "Must be 1–300 seconds.")),
    ),
    startTime: optional(dateTime),
    seed: optional(
      integerish.pipe(z.number().int().min(0, "Must be 0–2147483647.").max(2_147_483_647, "Must be 0–2147483647.")),
    ),
    repeat: optional(booleanish),
    lowBattery: optional(booleanish),
    engineData: optional(booleanish),
    fuelLevel: optional(numberish.pipe(z.number().min(0, "Must be 0–100.").max(100, "Must be 0–100."))),
    events: optional(
      z
        .array(
          z.object({
            at: numberish.pipe(
              z
                .number()
                .min(0, "Must be 0.0–1.0 (a fraction of the route).")
                .max(1, "Must be 0.0–1.0 (a fraction of the route)."),
            ),
            key: z
              .string()
              .transform((k) => k.toUpperCase())
              .pipe(z.enum(EVENT_KEYS, `Must be one of ${EVENT_KEYS.join(", ")}.`)),
            value: optional(
              z
                .union([z.string().trim().max(100, "Must be at most 100 characters."), z.number(), z.boolean()])
                .transform(String),
            ),
          }),
        )
        .max(50, "At most 50 events."),
    ),
  })
  .superRefine((v, ctx) => {
    checkWay(v, ctx, true);
    const speedUp = v.speedUp ?? 1;
    const period = v.collectionPeriod ?? 60;
    // (Refinements also run when a field failed: only compare values that are valid.)
    const valid = (n: unknown, min: number, max: number) => typeof n === "number" && n >= min && n <= max;
    if (v.mode === "realtime") {
      // The wire DateTime has whole seconds: data sets closer than 1 s apart would collide.
      if (valid(period, 1, 300) && valid(speedUp, 1, 60) && period / speedUp < 1)
        ctx.addIssue({
          code: "custom",
          path: ["speedUp"],
          message: "collectionPeriod / speedUp must be at least 1 second.",
        });
      if (v.startTime)
        ctx.addIssue({
          code: "custom",
          path: ["startTime"],
          message: "startTime is for instant mode; a real-time run starts now.",
        });
    } else {
      if (v.speedUp !== undefined)
        ctx.addIssue({ code: "custom", path: ["speedUp"], message: "speedUp is for realtime mode." });
      if (v.repeat) ctx.addIssue({ code: "custom", path: ["repeat"], message: "repeat is for realtime mode." });
    }
  });

export type SimulationInput = z.output<typeof simulationBody>;

export const savedRouteBody = z
  .object({ name: text(100).min(1, "Must not be empty."), ...wayFields })
  .superRefine((v, ctx) => checkWay(v, ctx, false));

export type SavedRouteInput = z.output<typeof savedRouteBody>;

export const simulationParams = z.object({ vehicleId: z.string().min(1).max(64) });
export const simulationRunParams = simulationParams.extend({ runId: idParam });
export const savedRouteParams = z.object({ routeId: idParam });
export const templateParams = z.object({ templateId: z.string().min(1).max(64) });

const pointOut = z.object({ latitude: z.number(), longitude: z.number() });
const attribution = z.string().describe("Road data credit: © OpenStreetMap contributors, ODbL 1.0");

export const simulationOut = z.object({
  id: z.number().int(),
  vehicleId: z.number().int(),
  mode: z.enum(["realtime", "instant"]),
  status: z.enum(["running", "finished", "stopped"]),
  stopReason: z.string().nullable(),
  progress: z.number().describe("Share of the current trip driven, 0.0–1.0"),
  dataSetCount: z.number().int(),
  tripId: z
    .number()
    .int()
    .nullable()
    .describe("The trip the simulation's data sets made (the latest lap's when repeating)"),
  routeLengthMiles: z.number(),
  network: z.string().nullable(),
  routeId: z.number().int().nullable(),
  templateId: z.string().nullable(),
  speedUp: z.number().int(),
  collectionPeriod: z.number().int(),
  seed: z.number().int(),
  repeat: z.boolean(),
  lap: z.number().int(),
  createdAt: dateTimeOut,
  endedAt: dateTimeOut.nullable(),
  attribution,
});

export const savedRouteOut = z.object({
  id: z.number().int(),
  name: z.string(),
  network: z.string(),
  lengthMiles: z.number(),
  loop: z.boolean().describe("Ends where it starts (within 50 m)"),
  geometry: z.array(pointOut),
  createdAt: dateTimeOut,
  attribution,
});

export const templateOut = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  network: z.string(),
  lengthMiles: z.number(),
  loop: z.boolean(),
  geometry: z.array(pointOut),
  attribution,
});

export type SimulationOut = z.infer<typeof simulationOut>;
export type SavedRouteOut = z.infer<typeof savedRouteOut>;
export type TemplateOut = z.infer<typeof templateOut>;
