import { z } from "zod";
import {
  CONTROL_CHARACTER,
  CONTROL_CHARACTER_MESSAGE,
  dateTimeOut,
  idParam,
  integerish,
  keep,
  numberish,
  optional,
  text,
} from "@/common/http/fields";
import { PERIODS, periodsDescription } from "@/common/subscriptions/event-types";
import { normaliseRing, selfIntersects } from "@/common/geo/polygon";
import { inboxToken } from "@/server/inbox/address";

// Subscriptions on the wire (docs/subscriptions.md). The body is parsed field by field
// here; which criteria a type requires is checked by criteria.ts once the type (from the path) and
// the stored values are known, so create and update share one rule.

const upper = <const T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z
    .string()
    .transform((s) => s.trim().toUpperCase())
    .pipe(z.enum(values, message));

// What each period means and which types take which, for the OpenAPI document (built once).
const PERIODS_DESCRIPTION = periodsDescription();

// "INITIAL" is an accepted alias of INITIALSTATE (docs/subscriptions.md).
const notificationPeriod = z
  .string()
  .transform((s) => {
    const v = s.trim().toUpperCase();
    return v === "INITIAL" ? "INITIALSTATE" : v;
  })
  .pipe(z.enum(PERIODS, "Must be CONTINUOUS, STATECHANGE, INITIALSTATE or ONETIME."));

// Receivers are reached over HTTPS only (docs/subscriptions.md#deliveries); where the name resolves to is checked
// again when the worker connects.
const checkHttpsUrl = (value: string, ctx: z.RefinementCtx) => {
  if (CONTROL_CHARACTER.test(value)) return ctx.addIssue({ code: "custom", message: CONTROL_CHARACTER_MESSAGE });
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.addIssue({ code: "custom", message: "Must be an absolute https:// URL." });
    return;
  }
  if (url.protocol !== "https:")
    ctx.addIssue({ code: "custom", message: "Only https:// URLs can receive notifications." });
  else if (url.username || url.password)
    ctx.addIssue({ code: "custom", message: "Must not carry a user name or password; use postHeaders or oauth2." });
  else if (url.hash) ctx.addIssue({ code: "custom", message: "Must not have a #fragment." });
};

const httpsUrl = z.string().trim().max(2048, "Must be at most 2048 characters.").superRefine(checkHttpsUrl);

// A webhook target: https, or this service's sandbox inbox URL, which is plain http on a laptop
// (docs/delivery.md#sandbox-inbox). That it is the app's own inbox, in the sandbox, is checked by the service.
const webhookUrl = z
  .string()
  .trim()
  .max(2048, "Must be at most 2048 characters.")
  .superRefine((value, ctx) => {
    if (CONTROL_CHARACTER.test(value)) ctx.addIssue({ code: "custom", message: CONTROL_CHARACTER_MESSAGE });
    else if (inboxToken(value) === null) checkHttpsUrl(value, ctx);
  });

// Headers the service sets itself, or that would break the request, cannot be overridden.
const RESERVED_HEADERS = new Set([
  "host",
  "content-length",
  "content-type",
  "transfer-encoding",
  "connection",
  "webhook-id",
  "webhook-timestamp",
  "webhook-signature",
]);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const postHeaders = z
  .record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String))
  .superRefine((headers, ctx) => {
    const names = Object.keys(headers);
    if (names.length > 20) ctx.addIssue({ code: "custom", message: "At most 20 headers." });
    for (const name of names) {
      const value = headers[name]!;
      if (!HEADER_NAME.test(name)) ctx.addIssue({ code: "custom", path: [name], message: "Not a valid header name." });
      else if (RESERVED_HEADERS.has(name.toLowerCase()))
        ctx.addIssue({ code: "custom", path: [name], message: `${name} is set by the service and cannot be sent.` });
      if (/[\r\n\0]/.test(value) || value.length > 4096)
        ctx.addIssue({
          code: "custom",
          path: [name],
          message: "Header values are one line of at most 4096 characters.",
        });
    }
  });

const secretText = z.string().trim().min(1, "Required.").max(4096, "Must be at most 4096 characters.");

// All five members are required when the map is given (docs/subscriptions.md#deliveries).
const oauth2Map = z.object({
  access_token: secretText,
  client_id: secretText,
  client_secret: secretText,
  refresh_token: secretText,
  redirect_uri: httpsUrl,
});

// `POST_HTTP` is accepted as an older spelling; HTTP_POST is stored and returned.
const deliveryKind = z
  .string()
  .transform((s) => {
    const v = s.trim().toUpperCase();
    return v === "POST_HTTP" ? "HTTP_POST" : v;
  })
  .pipe(z.enum(["HTTP_POST", "EMAIL"], "Must be HTTP_POST or EMAIL."));

// `id` lets an echoed delivery keep its identity (and its active state) on update; `active` and
// `deactivationReason` are read-only and ignored (docs/api.md#field-values: echoed read-only fields).
const deliveryBody = z
  .object({
    id: optional(idParam),
    type: deliveryKind,
    postUrl: optional(webhookUrl),
    postHeaders: optional(postHeaders),
    oauth2: optional(oauth2Map),
    recipient: optional(
      z.string().trim().max(254, "Must be at most 254 characters.").pipe(z.email("Must be an e-mail address.")),
    ),
    subscriberSubject: optional(text(200)),
    subscriberContent: optional(text(10_000)),
  })
  // Each kind's required field, reported in the same pass as the other field errors. Runs even
  // when another field failed, so one answer names every problem.
  .superRefine((d, ctx) => {
    if (d.type === "HTTP_POST" && d.postUrl === undefined)
      ctx.addIssue({
        code: "invalid_type",
        expected: "string",
        input: undefined,
        path: ["postUrl"],
        message: "postUrl is required for HTTP_POST.",
      });
    if (d.type === "EMAIL" && d.recipient === undefined)
      ctx.addIssue({
        code: "invalid_type",
        expected: "string",
        input: undefined,
        path: ["recipient"],
        message: "recipient is required for EMAIL.",
      });
  });

export type DeliveryInput = z.output<typeof deliveryBody>;

const DAYS = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"] as const;
export type Day = (typeof DAYS)[number];

const clock = z
  .string()
  .trim()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Must be a time like "07:30" (24-hour HH:MM).');

const position = z.object({
  latitude: numberish.pipe(z.number().min(-90, "Must be from -90 to 90.").max(90, "Must be from -90 to 90.")),
  longitude: numberish.pipe(z.number().min(-180, "Must be from -180 to 180.").max(180, "Must be from -180 to 180.")),
});

const POLYGON_MIN = 3;
const POLYGON_MAX = 100;

// A GEOFENCE's ring (docs/subscriptions.md#polygons): 3–100 points, the closing repeat of the first
// not counted and not stored, no point twice in a row, no edge crossing or touching another.
// Each point's own errors name it (polygon.2.latitude); the ring's name the field.
const polygon = z
  .array(position)
  .max(POLYGON_MAX + 1, `At most ${POLYGON_MAX} points.`)
  .transform((points, ctx) => {
    const ring = normaliseRing(points);
    if (ring.length < POLYGON_MIN || ring.length > POLYGON_MAX) {
      ctx.addIssue({
        code: "custom",
        message: `Must have ${POLYGON_MIN} to ${POLYGON_MAX} points (a closing repeat of the first is not counted).`,
      });
      return z.NEVER;
    }
    const repeated = ring.findIndex(
      (p, i) => i > 0 && p.latitude === ring[i - 1]!.latitude && p.longitude === ring[i - 1]!.longitude,
    );
    if (repeated > 0) {
      ctx.addIssue({
        code: "custom",
        path: [repeated],
        message: `Point ${repeated} repeats the point before it.`,
      });
      return z.NEVER;
    }
    if (selfIntersects(ring)) {
      ctx.addIssue({ code: "custom", message: "Must not cross or touch itself (edges meet only at their corners)." });
      return z.NEVER;
    }
    return ring;
  })
  .meta({
    description:
      `GEOFENCE instead of origin and radius: the fence's corners, ${POLYGON_MIN} to ${POLYGON_MAX} points, closed ` +
      "or not (read back without the closing point). Edges run straight in latitude and longitude, the short " +
      "way round (over the antimeridian where that is shorter); a point on an edge is inside.",
  });

// The criteria of every type, all optional here (criteria.ts requires what a type needs).
const criteriaFields = {
  origin: keep(position),
  polygon: keep(polygon),
  radius: keep(numberish.pipe(z.number().gt(0, "Must be above 0.").max(12_500, "Must be at most 12500 miles."))),
  boundaryCondition: keep(upper(["INSIDE", "OUTSIDE"], "Must be INSIDE or OUTSIDE.")),
  ignitionStatus: keep(upper(["ON", "OFF", "RUNNING", "ANY"], "Must be ON, OFF, RUNNING or ANY.")),
  dataKey: keep(
    z
      .string()
      .trim()
      .regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, "Must be a data key such as GEN_SPEED.")
      .transform((k) => k.toUpperCase()),
  ),
  thresholdValue: keep(numberish),
  relationship: keep(upper(["ABOVE", "BELOW", "EQUALTO"], "Must be ABOVE, BELOW or EQUALTO.")),
  startTime: keep(clock),
  endTime: keep(clock),
  daysOfWeek: keep(
    z
      .union([z.array(z.string()), z.string().transform((s) => s.split(","))])
      .transform((days) => days.map((d) => d.trim().toUpperCase()))
      .pipe(z.array(z.enum(DAYS, "Days are SUN, MON, TUE, WED, THU, FRI, SAT.")).min(1, "At least one day."))
      .transform((days) => DAYS.filter((d) => days.includes(d))),
  ),
};

export const CRITERIA_FIELDS = Object.keys(criteriaFields) as (keyof typeof criteriaFields)[];

// Create and update read the same body: on create an absent field takes its default, on update
// it keeps its stored value. null is "not sent" either way (echoed objects carry nulls).
export const subscriptionBody = z.object({
  notificationPeriod: keep(notificationPeriod).meta({ description: PERIODS_DESCRIPTION }),
  minimumTime: keep(
    integerish.pipe(
      z.number().int().min(0, "Must be 0 or more.").max(525_600, "Must be at most 525600 minutes (a year)."),
    ),
  ),
  postUrl: keep(webhookUrl),
  postHeaders: keep(postHeaders),
  deliveries: keep(z.array(deliveryBody).max(10, "At most 10 deliveries.")),
  ...criteriaFields,
});

export type SubscriptionInput = z.output<typeof subscriptionBody>;
export type Criteria = Partial<Pick<SubscriptionInput, (typeof CRITERIA_FIELDS)[number]>>;

const deliveryOut = z.object({
  id: z.number().int(),
  type: z.enum(["HTTP_POST", "EMAIL"]),
  postUrl: z.string().nullable().optional(),
  postHeaders: z.record(z.string(), z.string()).nullable().optional(),
  oauth2: oauth2Map.nullable().optional(),
  recipient: z.string().nullable().optional(),
  subscriberSubject: z.string().nullable().optional(),
  subscriberContent: z.string().nullable().optional(),
  active: z.boolean(),
  deactivationReason: z.string().nullable(),
});

export const subscriptionOut = z
  .object({
    id: z.number().int(),
    _type: z.string().meta({ example: "WAYPOINT" }),
    _timestamp: dateTimeOut,
    creationTimestamp: dateTimeOut,
    deletionTimestamp: dateTimeOut.nullable(),
    minimumTime: z.number().int(),
    notificationPeriod: z.enum(PERIODS).meta({ description: PERIODS_DESCRIPTION }),
    creatorClientId: z.string(),
    vehicleId: z.number().int().nullable(),
    accountId: z.number().int().nullable(),
    postUrl: z.string().nullable(),
    postHeaders: z.record(z.string(), z.string()).nullable(),
    deliveries: z.array(deliveryOut),
  })
  .catchall(z.unknown())
  .describe(
    "The type's criteria (origin and radius or polygon, boundaryCondition, ignitionStatus, dataKey, thresholdValue, " +
      "relationship, startTime, endTime, daysOfWeek) appear beside these fields.",
  );

export const notificationOut = z
  .object({
    id: z.number().int(),
    eventId: z.string().describe("The event's id: the webhook-id of its deliveries and its id in the event feed"),
    subscriptionId: z.number().int(),
    accountId: z.number().int().nullable(),
    vehicleId: z.number().int().nullable(),
    dataSetId: z.number().int().nullable(),
    tripId: z.number().int().nullable(),
    _domain: z.literal("wayline"),
    _type: z.string(),
    _name: z.string(),
    _timestamp: dateTimeOut,
    eventTimestamp: dateTimeOut,
    minimumTime: z.number().int(),
    notificationPeriod: z.enum(PERIODS),
    creatorClientId: z.string(),
    httpStatusCode: z.number().int(),
  })
  .catchall(z.unknown())
  .describe(
    "Plus the type's recorded values: recordedWaypoint {timestamp, latitude, longitude}, " +
      "recordedBoundaryCondition, ignitionStatus, thresholdVoltage/recordedVoltage, " +
      "dataKey/thresholdValue/relationship/recordedValue, troubleCodes, authorizationStatus, and " +
      "recordedEvent for the momentary events (true when a data set carried it; false in STATECHANGE's " +
      "notification that it stopped arriving).",
  );

// An event of GET /eventFeed/: the body its webhook carries, plus its position in the feed.
export const feedEventOut = notificationOut.extend({
  cursor: z.string().describe("This event's position: pass as after to read on from it"),
});
