import { z } from "zod";
import { dateTimeOut } from "@/common/http/fields";
import { EVENT_TYPES, EVENT_TYPE_NAMES, type EventType } from "@/common/subscriptions/event-types";

// The event catalog (docs/sdk.md#the-event-catalog): the body of every event type, as its webhook carries it
// and the event feed returns it (docs/subscriptions.md#notifications). One zod schema per type, built from
// the fields every notification has and the values its type records. The serialiser's output type, the
// OpenAPI documents' `webhooks` and the typed client's webhook types all come from here, and the test
// suite's HTTPS receiver checks every delivered body against the JSON Schema made from it.

/** What every notification carries, whatever its type. `_type` and `_name` are the type's name. */
const notificationFields = {
  id: z.number().int().describe("The notification's id"),
  eventId: z.string().describe("The event's id: the webhook-id of its deliveries and its id in the event feed"),
  subscriptionId: z.number().int(),
  accountId: z.number().int().nullable(),
  vehicleId: z.number().int().nullable().describe("null for the system-scope types"),
  dataSetId: z.number().int().nullable().describe("The data set that caused it; null when no data set did"),
  tripId: z.number().int().nullable(),
  _domain: z.literal("wayline"),
  _timestamp: dateTimeOut.describe("When the event happened"),
  eventTimestamp: dateTimeOut.describe("When the notification was made"),
  minimumTime: z.number().int().describe("The subscription's minimumTime when it fired (minutes)"),
  creatorClientId: z.string(),
  httpStatusCode: z
    .number()
    .int()
    .describe("0 in a delivered body and in the event feed; the receiver's last status on later reads"),
  test: z
    .literal(true)
    .optional()
    .describe("Present (true) only on a test notification (GET test/vehicle/…/eventSubscription/{id})"),
};

/**
 * The common fields of any notification, as the serialiser returns them (server/notifications/serialize.ts):
 * its type's recorded values go beside them.
 */
export type NotificationWire = z.output<z.ZodObject<typeof notificationFields>> & {
  _type: string;
  _name: string;
  notificationPeriod: string;
} & Record<string, unknown>;

const recordedWaypoint = z
  .object({
    timestamp: dateTimeOut,
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
  })
  .nullable()
  .describe("Where the vehicle was (the data set's position); null when the data set had none, and on a test");

const waypointOnly = { recordedWaypoint };
const momentary = {
  recordedWaypoint,
  recordedEvent: z
    .boolean()
    .nullable()
    .describe("true when a data set carried the event; false in STATECHANGE's notification that it stopped arriving"),
};

/** The values each type records besides the common fields (null on a test notification). */
const RECORDED = {
  WAYPOINT: waypointOnly,
  GEOFENCE: {
    recordedWaypoint,
    recordedBoundaryCondition: z.enum(["INSIDE", "OUTSIDE"]).nullable(),
  },
  IGNITIONSTATUS: { recordedWaypoint, ignitionStatus: z.enum(["ON", "OFF"]).nullable() },
  LOWBATTERY: {
    recordedWaypoint,
    thresholdVoltage: z.number().describe("Volts below which the battery counts as low (12.0)"),
    recordedVoltage: z.number().nullable(),
  },
  NUMERICDATAKEY: {
    recordedWaypoint,
    dataKey: z.string(),
    thresholdValue: z.number(),
    relationship: z.enum(["ABOVE", "BELOW", "EQUALTO"]),
    recordedValue: z.number().nullable(),
  },
  TIMEOFDAY: waypointOnly,
  TROUBLECODE: { recordedWaypoint, troubleCodes: z.array(z.string()).nullable() },
  VEHICLEHARSHACCEL: momentary,
  VEHICLEHARSHDECEL: momentary,
  VEHICLEHARSHRIGHT: momentary,
  VEHICLEHARSHLEFT: momentary,
  VEHICLEIMPACT: momentary,
  VEHICLECONNECTED: momentary,
  VEHICLEDISCONNECTED: momentary,
  VEHICLETOWED: momentary,
  VEHICLECREATED: {},
  VEHICLEDELETED: {},
  AUTHORIZATIONSTATUS: { authorizationStatus: z.enum(["REVOKED"]).nullable() },
} satisfies Record<EventType, z.ZodRawShape>;

// App events (docs/delivery.md#app-events): ACCESSREVOKED and ACCOUNTDELETED go to an app's own
// endpoint, not to a subscription, and carry exactly these four fields, nothing else of the driver's
// (server/notifications/serialize.ts, serializeEventBody).
const appEventBody = <T extends string>(type: T) =>
  z
    .object({
      _type: z.literal(type),
      _timestamp: dateTimeOut.describe("When the access ended"),
      accountId: z.number().int().describe("The account the app can no longer reach"),
      clientId: z.string().describe("The app's client id in this environment"),
    })
    .strict();
const APP_EVENT_BODIES = {
  ACCESSREVOKED: appEventBody("ACCESSREVOKED"),
  ACCOUNTDELETED: appEventBody("ACCOUNTDELETED"),
};
type AppEventType = keyof typeof APP_EVENT_BODIES;

function bodyOf<T extends EventType>(type: T) {
  return z
    .object({
      ...notificationFields,
      _type: z.literal(type),
      _name: z.literal(type),
      notificationPeriod: z.enum(EVENT_TYPES[type].periods),
      ...RECORDED[type],
    })
    .strict();
}

type Bodies = { [T in EventType]: ReturnType<typeof bodyOf<T>> };

/** The body schema of each event type's webhook. */
export const webhookBodies: Record<string, z.ZodObject> = {
  ...(Object.fromEntries(EVENT_TYPE_NAMES.map((t) => [t, bodyOf(t)])) as Bodies),
  ...APP_EVENT_BODIES,
};

const at = "20261125T081500+0000";
const waypointExample = { timestamp: at, latitude: 39.9612, longitude: -82.9988 };

const RECORDED_EXAMPLES: Record<EventType, Record<string, unknown>> = {
  WAYPOINT: { recordedWaypoint: waypointExample },
  GEOFENCE: { recordedWaypoint: waypointExample, recordedBoundaryCondition: "INSIDE" },
  IGNITIONSTATUS: { recordedWaypoint: waypointExample, ignitionStatus: "ON" },
  LOWBATTERY: { recordedWaypoint: waypointExample, thresholdVoltage: 12, recordedVoltage: 11.6 },
  NUMERICDATAKEY: {
    recordedWaypoint: waypointExample,
    dataKey: "GEN_SPEED",
    thresholdValue: 70,
    relationship: "ABOVE",
    recordedValue: 74.5,
  },
  TIMEOFDAY: { recordedWaypoint: waypointExample },
  TROUBLECODE: { recordedWaypoint: waypointExample, troubleCodes: ["P0300"] },
  VEHICLEHARSHACCEL: { recordedWaypoint: waypointExample, recordedEvent: true },
  VEHICLEHARSHDECEL: { recordedWaypoint: waypointExample, recordedEvent: true },
  VEHICLEHARSHRIGHT: { recordedWaypoint: waypointExample, recordedEvent: true },
  VEHICLEHARSHLEFT: { recordedWaypoint: waypointExample, recordedEvent: true },
  VEHICLEIMPACT: { recordedWaypoint: waypointExample, recordedEvent: true },
  VEHICLECONNECTED: { recordedWaypoint: waypointExample, recordedEvent: true },
  VEHICLEDISCONNECTED: { recordedWaypoint: waypointExample, recordedEvent: true },
  VEHICLETOWED: { recordedWaypoint: waypointExample, recordedEvent: true },
  VEHICLECREATED: {},
  VEHICLEDELETED: {},
  AUTHORIZATIONSTATUS: { authorizationStatus: "REVOKED" },
};

/** An example body of each type, for the documents (a unit test parses each with its schema). */
export function webhookExample(type: EventType | AppEventType): Record<string, unknown> {
  if (type === "ACCESSREVOKED" || type === "ACCOUNTDELETED")
    return { _type: type, _timestamp: at, accountId: 1042, clientId: "3f1c0d9e6b2a4c58" };
  const lifecycle = EVENT_TYPES[type].kind === "lifecycle";
  return {
    id: 5021,
    eventId: "5021",
    subscriptionId: 311,
    accountId: 1042,
    vehicleId: type === "AUTHORIZATIONSTATUS" ? null : 2210,
    dataSetId: lifecycle ? null : 88410,
    tripId: lifecycle ? null : 901,
    _domain: "wayline",
    _type: type,
    _name: type,
    _timestamp: at,
    eventTimestamp: "20261125T081501+0000",
    minimumTime: 0,
    notificationPeriod: EVENT_TYPES[type].periods[0],
    creatorClientId: "3f1c0d9e6b2a4c58",
    httpStatusCode: 0,
    ...RECORDED_EXAMPLES[type],
  };
}
