import { expect } from "vitest";
import { api, apiBase, createDriver, request, type Credentials } from "./api";
import { addVehicle, apps } from "./fixtures";
import { dataSet, waypoint } from "./telemetry";

// The served OpenAPI document's endpoints with a JSON body, a valid body for each, and a driver
// with a vehicle and subscriptions to fill their paths: shared by the tests that walk every body
// (required-fields, nul-input).

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
};
type OpenApiOperation = {
  requestBody?: { content: { "application/json": { schema: JsonSchema } } };
  responses: Record<string, unknown>;
};
export type Path = (string | number)[];

const HTTPS = "https://hooks.partner.example/wayline";
const DOWNTOWN = { latitude: 39.9612, longitude: -82.9988 };
const CLINTONVILLE = { latitude: 40.0359, longitude: -83.0174 };
const subscription = {
  postUrl: HTTPS,
  deliveries: [
    {
      type: "HTTP_POST",
      postUrl: HTTPS,
      oauth2: {
        access_token: "at",
        client_id: "ci",
        client_secret: "cs",
        refresh_token: "rt",
        redirect_uri: `${HTTPS}/token`,
      },
    },
    { type: "EMAIL", recipient: "fleet@partner.example" },
  ],
};

/** Valid bodies per operation (several where a body has more than one form). A new operation with a body needs one here. */
export const VALID: { method: string; path: RegExp; bodies: () => unknown[] }[] = [
  {
    method: "post",
    path: /^\/account\/$/,
    bodies: () => [
      { firstName: "Req", lastName: "Fields", username: `req.${Date.now()}`, password: "correct-horse-1" },
    ],
  },
  { method: "post", path: /^\/account\/\{accountId\}$/, bodies: () => [{ firstName: "Req" }] },
  { method: "post", path: /^\/vehicle\/$/, bodies: () => [{ label: "Req car" }] },
  { method: "post", path: /^\/vehicle\/\{vehicleId\}$/, bodies: () => [{ label: "Req car" }] },
  {
    method: "post",
    path: /^\/vehicle\/\{vehicleId\}\/dataSet\/$/,
    bodies: () => {
      const one = dataSet(new Date(Date.now() - 60_000), "RUNNING", [waypoint(DOWNTOWN.latitude, DOWNTOWN.longitude)]);
      return [one, [one]];
    },
  },
  { method: "post", path: /\/eventSubscription\//, bodies: () => [subscription] },
  {
    method: "post",
    path: /^\/vehicle\/\{vehicleId\}\/simulation\/$/,
    bodies: () => [
      { mode: "instant", start: DOWNTOWN, end: CLINTONVILLE, events: [{ at: 0.5, key: "VEHICLE_EVENT_HARSH_ACCEL" }] },
      { mode: "instant", route: [DOWNTOWN, CLINTONVILLE] },
    ],
  },
  {
    method: "post",
    path: /^\/simulation\/route\/$/,
    bodies: () => [{ name: "Req route", start: DOWNTOWN, end: CLINTONVILLE }],
  },
];

export type BodyOperation = { method: string; path: string; schema: JsonSchema; clientOnly: boolean };

/** The valid bodies written for an operation (undefined when none is: a new endpoint needs one in VALID). */
export const validBodies = (op: { method: string; path: string }) =>
  VALID.find((v) => v.method === op.method && v.path.test(op.path))?.bodies();

export type BodyFixtures = {
  operations: BodyOperation[];
  /** The served document's paths (for operations without a body). */
  paths: Record<string, Record<string, OpenApiOperation & { parameters?: { name: string; in: string }[] }>>;
  fill: (path: string) => string;
  tokens: { client: string; user: string };
  driver: Awaited<ReturnType<typeof createDriver>>;
  vehicleId: number;
};

/** The sandbox document's body operations, and a fresh driver (vehicle, subscriptions) of `app` (the shared main app unless given) to call them with. */
export async function bodyFixtures(app: Credentials = apps().main.sandbox): Promise<BodyFixtures> {
  const doc = await request("GET", `${apiBase("sandbox")}/openapi.json`);
  expect(doc.status, doc.text).toBe(200);
  const operations = Object.entries(doc.body.paths as Record<string, Record<string, OpenApiOperation>>).flatMap(
    ([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => op.requestBody)
        .map(([method, op]) => ({
          method,
          path,
          schema: op.requestBody!.content["application/json"].schema,
          clientOnly: "403" in op.responses,
        })),
  );

  const driver = await createDriver("sandbox", app);
  const { vehicleId } = await addVehicle("sandbox", driver.accessToken);
  const subscribe = async (prefix: string, type: string) => {
    const res = await api("sandbox").post(
      `${prefix}/eventSubscription/${type}/`,
      { postUrl: HTTPS },
      driver.clientToken,
    );
    expect(res.status, res.text).toBe(200);
    return res.body.subscription.id as number;
  };
  const subs = {
    vehicle: await subscribe(`/vehicle/${vehicleId}`, "WAYPOINT"),
    account: await subscribe(`/account/${driver.account.id}`, "WAYPOINT"),
    system: await subscribe("/system", "AUTHORIZATIONSTATUS"),
  };
  const tokens = { client: driver.clientToken, user: driver.accessToken };
  const fill = (path: string) => {
    const prefix = path.split("/")[1] as keyof typeof subs;
    return path
      .replace("{accountId}", String(driver.account.id))
      .replace("{vehicleId}", String(vehicleId))
      .replace("{eventType}", prefix === "system" ? "AUTHORIZATIONSTATUS" : "WAYPOINT")
      .replace("{subscriptionId}", String(subs[prefix]));
  };
  return { operations, paths: doc.body.paths, fill, tokens, driver, vehicleId };
}
