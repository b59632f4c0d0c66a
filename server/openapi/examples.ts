import type { z } from "zod";
import { accountOut, createAccountBody, createdAccountOut, updateAccountBody } from "@/common/accounts/schemas";
import { EVENT_TYPES, type EventType } from "@/common/subscriptions/event-types";
import { deviceOut } from "@/server/devices/schemas";
import type { Operation } from "@/common/http/operation";
import { savedRouteBody, savedRouteOut, simulationBody, simulationOut, templateOut } from "@/server/simulator/schemas";
import { feedEventOut, notificationOut, subscriptionBody, subscriptionOut } from "@/server/subscriptions/schemas";
import { translateValue } from "@/common/telemetry/keys";
import { dataSetOut, dataSetPostBody, tripOut, vehiclePointOut } from "@/server/telemetry/schemas";
import { createVehicleBody, updateVehicleBody, vehicleOut } from "@/server/vehicles/schemas";

// One realistic example per operation for the reference (/docs): request values and the 200 body
// with its envelope. They describe one story (Ada's car in Columbus, its ignition subscription, a
// simulated drive), so ids agree across operations. test/integration/shared/openapi-examples.test.ts
// parses every one with the operation's own zod schemas, so an example cannot drift from the code.
// Update bodies change one harmless field only: an example that clears deviceId would detach the
// device of whoever sends it.

const ACCOUNT_ID = 5121;
const VEHICLE_ID = 1042;
const SUBSCRIPTION_ID = 381;
const CLIENT_ID = "app_7Hq2mX9pLw";
const WEBHOOK_URL = "https://partner.example/webhooks/wayline";
const AT = "20261124T141503+0000";
const COLUMBUS = { latitude: 39.9612, longitude: -82.9988 };
const FEED_CURSOR = "1.MTAyNDgzOTIuOTAyMTEuMTc5NTU4MDg4MTM1Nw.q4Xb0tY8mH3yq2Zc6E1dJf9KpLw7sVnRa5gUeBoCiTM";
const ATTRIBUTION = "© OpenStreetMap contributors, ODbL 1.0";

const account = {
  id: ACCOUNT_ID,
  firstName: "Ada",
  lastName: "Lovelace",
  username: "ada.lovelace",
  email: "ada@example.com",
  zipcode: "43215",
  phone: "+1 614 555 0142",
  timeZone: "America/New_York",
  preferredContact: "EMAIL",
  dateCreated: "20261120T091230+0000",
};

const vehicle = {
  vehicleId: VEHICLE_ID,
  accountId: ACCOUNT_ID,
  name: "2019 Honda Civic",
  deviceId: "WL-4F2A91C3",
  vin: "2HGFC2F56KH512345",
  label: "Ada's Civic",
  autoAssignDevice: false,
  mileage: 28311.402,
  lastWaypoint: { timestamp: AT, ...COLUMBUS },
  locationPaused: false,
  running: false,
  lastRunningTimestamp: "20261124T140212+0000",
  year: "2019",
  make: "Honda",
  model: "Civic",
};

// A phone app (OsmAnd's protocol, over HTTP: no connection held) heard from today; it tried once
// before the car named its identifier.
const device = {
  deviceId: "WL-4F2A91C3",
  protocol: "osmand",
  connected: false,
  lastContact: AT,
  lastRecordTime: AT,
  recordsToday: 412,
  lastRefusal: { time: "20261120T090511+0000", reason: "no vehicle has this deviceId" },
};

const point = (id: number, key: string, value: string) => ({
  id,
  dataSetId: 77301,
  timestamp: AT,
  key,
  value,
  translatedValue: translateValue(key, value),
});

const dataSet = {
  id: 77301,
  vehicleId: VEHICLE_ID,
  tripId: 2215,
  timestamp: AT,
  ignitionStatus: "RUNNING",
  deviceId: "WL-4F2A91C3",
  vin: "2HGFC2F56KH512345",
  datum: [point(880412, "GEN_SPEED", "34.2"), point(880413, "GEN_VOLTAGE", "13.9")],
};

const trip = {
  id: 2215,
  vehicleId: VEHICLE_ID,
  startTime: "20261124T134702+0000",
  endTime: "20261124T140212+0000",
  mileage: 6.284,
  startWaypoint: { timestamp: "20261124T134702+0000", latitude: 40.0076, longitude: -83.0304 },
  endWaypoint: { timestamp: "20261124T140212+0000", ...COLUMBUS },
};

const geometry = [
  { latitude: 39.9612, longitude: -82.9988 },
  { latitude: 39.9687, longitude: -83.0019 },
  { latitude: 39.9759, longitude: -83.0031 },
];

const simulation = {
  id: 64,
  vehicleId: VEHICLE_ID,
  mode: "realtime",
  status: "running",
  stopReason: null,
  progress: 0.35,
  dataSetCount: 12,
  tripId: 2216,
  routeLengthMiles: 3.9,
  network: "columbus",
  routeId: null,
  templateId: "columbus-downtown-loop",
  speedUp: 10,
  collectionPeriod: 30,
  seed: 20261124,
  repeat: false,
  lap: 1,
  createdAt: AT,
  endedAt: null,
  attribution: ATTRIBUTION,
};

const savedRoute = {
  id: 12,
  name: "Office to the Short North",
  network: "columbus",
  lengthMiles: 1.2,
  loop: false,
  geometry,
  createdAt: AT,
  attribution: ATTRIBUTION,
};

const template = {
  id: "columbus-downtown-loop",
  name: "Columbus downtown loop",
  description: "A short loop through downtown Columbus, Ohio.",
  network: "columbus",
  lengthMiles: 3.9,
  loop: true,
  geometry,
  attribution: ATTRIBUTION,
};

// Prefix paths of the subscription operations: the example's event type must be one that scope allows.
type Scope = "VEHICLE" | "ACCOUNT" | "SYSTEM";
const scopeOf = (path: string): Scope =>
  path.startsWith("/system") ? "SYSTEM" : path.startsWith("/account") ? "ACCOUNT" : "VEHICLE";
const eventTypeFor = (scope: Scope): EventType => (scope === "SYSTEM" ? "AUTHORIZATIONSTATUS" : "IGNITIONSTATUS");
const periodFor = (type: EventType) =>
  (EVENT_TYPES[type].periods as readonly string[]).includes("STATECHANGE") ? "STATECHANGE" : "CONTINUOUS";

function subscription(scope: Scope) {
  const type = eventTypeFor(scope);
  return {
    id: SUBSCRIPTION_ID,
    _type: type,
    _timestamp: AT,
    creationTimestamp: AT,
    deletionTimestamp: null,
    minimumTime: 0,
    notificationPeriod: periodFor(type),
    creatorClientId: CLIENT_ID,
    vehicleId: scope === "VEHICLE" ? VEHICLE_ID : null,
    accountId: scope === "ACCOUNT" ? ACCOUNT_ID : null,
    postUrl: WEBHOOK_URL,
    postHeaders: null,
    deliveries: [],
  };
}

function notification(scope: Scope) {
  const type = eventTypeFor(scope);
  const data = type === "AUTHORIZATIONSTATUS" ? { authorizationStatus: "AUTHORIZED" } : { ignitionStatus: "ON" };
  return {
    id: 90211,
    eventId: "90211",
    subscriptionId: SUBSCRIPTION_ID,
    accountId: ACCOUNT_ID,
    vehicleId: scope === "SYSTEM" ? null : VEHICLE_ID,
    dataSetId: scope === "SYSTEM" ? null : 77301,
    tripId: scope === "SYSTEM" ? null : 2215,
    _domain: "wayline",
    _type: type,
    _name: type === "AUTHORIZATIONSTATUS" ? "Authorization status" : "Ignition status",
    _timestamp: AT,
    eventTimestamp: AT,
    minimumTime: 0,
    notificationPeriod: periodFor(type),
    creatorClientId: CLIENT_ID,
    httpStatusCode: 200,
    ...data,
  };
}

// Response members by the schema the operation names (the serializers' output schemas).
const members = new Map<z.ZodType, (op: Operation) => unknown>([
  [accountOut, () => account],
  [createdAccountOut, () => ({ ...account, accessToken: { code: "c_N3vq8Jm2xKp4Rt7Ws1Yz" } })],
  [vehicleOut, () => vehicle],
  [deviceOut, () => device],
  [dataSetOut, () => dataSet],
  [tripOut, () => trip],
  [vehiclePointOut, () => ({ ...point(880412, "GEN_SPEED", "34.2"), vehicleId: VEHICLE_ID })],
  [subscriptionOut, (op) => subscription(scopeOf(op.path))],
  [notificationOut, (op) => notification(scopeOf(op.path))],
  [feedEventOut, () => ({ ...notification("VEHICLE"), httpStatusCode: 0, cursor: FEED_CURSOR })],
  [simulationOut, () => simulation],
  [savedRouteOut, () => savedRoute],
  [templateOut, () => template],
]);

// Request bodies by the schema the operation parses with.
const bodies = new Map<z.ZodType, (op: Operation) => unknown>([
  [
    createAccountBody,
    () => ({
      firstName: "Ada",
      lastName: "Lovelace",
      username: "ada.lovelace",
      password: "correct-horse-battery",
      email: "ada@example.com",
      timeZone: "America/New_York",
    }),
  ],
  [updateAccountBody, () => ({ phone: "+1 614 555 0142" })],
  [
    createVehicleBody,
    () => ({ accountId: ACCOUNT_ID, deviceId: "WL-4F2A91C3", vin: "2HGFC2F56KH512345", label: "Ada's Civic" }),
  ],
  [updateVehicleBody, () => ({ label: "Ada's Civic" })],
  [
    dataSetPostBody,
    () => ({
      timestamp: AT,
      ignitionStatus: "RUNNING",
      datum: [
        { key: "GEN_SPEED", value: "34.2" },
        { key: "GEN_VOLTAGE", value: "13.9" },
      ],
    }),
  ],
  [subscriptionBody, (op) => ({ notificationPeriod: periodFor(eventTypeFor(scopeOf(op.path))), postUrl: WEBHOOK_URL })],
  [
    simulationBody,
    () => ({ mode: "realtime", templateId: "columbus-downtown-loop", speedUp: 10, collectionPeriod: 30 }),
  ],
  [savedRouteBody, () => ({ name: "Office to the Short North", start: geometry[0], end: geometry[2] })],
]);

const params: Record<string, (op: Operation) => string | number> = {
  vehicleId: () => String(VEHICLE_ID),
  accountId: () => ACCOUNT_ID,
  subscriptionId: () => SUBSCRIPTION_ID,
  notificationId: () => 90211,
  eventType: (op) => eventTypeFor(scopeOf(op.path)),
  dataSetId: () => 77301,
  tripId: () => 2215,
  runId: () => 64,
  routeId: () => 12,
  templateId: () => "columbus-downtown-loop",
};

const queries: Record<string, unknown> = {
  searchLimit: 50,
  searchOffset: 0,
  sortOrder: "desc",
  key: "GEN_SPEED",
  mostRecentOnly: false,
  startTime: "20261101T000000+0000",
  endTime: AT,
  includeData: false,
  sinceLastCall: false,
  accountId: ACCOUNT_ID,
  after: FEED_CURSOR,
  eventType: "IGNITIONSTATUS",
};

// More request bodies an operation shows beside its example, by name: a GEOFENCE drawn as a polygon
// (docs/subscriptions.md#polygons) where subscriptions are created on a vehicle or an account.
const creates = (op: Operation) => op.method === "POST" && op.path.endsWith("/eventSubscription/{eventType}/");
const polygonGeofence = {
  summary: "GEOFENCE with a polygon (POST …/eventSubscription/GEOFENCE/)",
  value: {
    notificationPeriod: "STATECHANGE",
    boundaryCondition: "INSIDE",
    // Ada's office block in downtown Columbus, corner by corner; the ring need not be closed.
    polygon: [
      { latitude: 39.9612, longitude: -82.9988 },
      { latitude: 39.9612, longitude: -82.9961 },
      { latitude: 39.9631, longitude: -82.9961 },
      { latitude: 39.9631, longitude: -82.9975 },
      { latitude: 39.9624, longitude: -82.9988 },
    ],
    postUrl: WEBHOOK_URL,
  },
};

export type OperationExample = {
  params: Record<string, string | number>;
  query: Record<string, unknown>;
  body?: unknown;
  moreBodies?: Record<string, { summary: string; value: unknown }>;
  response: Record<string, unknown>;
};

const shapeKeys = (schema: z.ZodType | undefined): string[] => {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
};

/** The operation's example, or an Error naming what has none (the document must not ship without one). */
export function operationExample(op: Operation): OperationExample {
  const missing = (what: string) => new Error(`No example for ${what} of ${op.method} ${op.path}`);
  const exampleParams = Object.fromEntries(
    shapeKeys(op.params).map((name) => {
      const make = params[name];
      if (!make) throw missing(`path parameter ${name}`);
      return [name, make(op)];
    }),
  );
  const exampleQuery = Object.fromEntries(
    shapeKeys(op.query)
      .filter((name) => name in queries)
      .map((name) => [name, queries[name]]),
  );
  let body: unknown;
  if (op.body) {
    const make = bodies.get(op.body);
    if (!make) throw missing("the request body");
    body = make(op);
  }
  let response: Record<string, unknown>;
  if (op.response === "result") response = { result: "OK", totalRecords: 1, actions: [] };
  else {
    const make = members.get(op.response.schema);
    if (!make) throw missing("the response");
    const member = make(op);
    // A stream's example is one event's data (the document shows it inside an SSE message).
    response = op.response.stream
      ? (member as Record<string, unknown>)
      : op.response.members
        ? { [op.response.key]: [member], nextCursor: FEED_CURSOR, totalRecords: 1, actions: [] }
        : op.response.list
          ? { [op.response.key]: [member], totalRecords: 1, actions: [] }
          : { [op.response.key]: member, totalRecords: null, actions: [] };
  }
  const moreBodies = creates(op) && scopeOf(op.path) !== "SYSTEM" ? { polygonGeofence } : undefined;
  return { params: exampleParams, query: exampleQuery, ...(op.body ? { body } : {}), moreBodies, response };
}
