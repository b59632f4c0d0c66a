import { beforeAll, describe, expect, it } from "vitest";
import { api, apiBase, createDriver, request } from "../helpers/api";
import { apps, addVehicle, expectFieldErrors } from "../helpers/fixtures";
import { dataSet, waypoint } from "../helpers/telemetry";

// Every endpoint with a JSON body, from the served OpenAPI document (generated from the zod schemas
// the route wrapper parses with, so a new endpoint is covered as soon as it exists): start from a
// valid body, leave out each required field in turn, nested ones included, and expect 400
// VALIDATION naming exactly that field REQUIRED (docs/api.md#errors).

type JsonSchema = { type?: string | string[]; properties?: Record<string, JsonSchema>; required?: string[]; items?: JsonSchema; anyOf?: JsonSchema[] };
type Operation = { requestBody?: { content: { "application/json": { schema: JsonSchema } } }; responses: Record<string, unknown> };
type Path = (string | number)[];

const HTTPS = "https://hooks.partner.example/wayline";
const DOWNTOWN = { latitude: 39.9612, longitude: -82.9988 };
const CLINTONVILLE = { latitude: 40.0359, longitude: -83.0174 };
const subscription = {
  postUrl: HTTPS,
  deliveries: [
    { type: "HTTP_POST", postUrl: HTTPS, oauth2: { access_token: "at", client_id: "ci", client_secret: "cs", refresh_token: "rt", redirect_uri: `${HTTPS}/token` } },
    { type: "EMAIL", recipient: "fleet@partner.example" },
  ],
};

/** Valid bodies per operation (several where a body has more than one form). A new operation with a body needs one here. */
const VALID: { method: string; path: RegExp; bodies: () => unknown[] }[] = [
  { method: "post", path: /^\/account\/$/, bodies: () => [{ firstName: "Req", lastName: "Fields", username: `req.${Date.now()}`, password: "correct-horse-1" }] },
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
  { method: "post", path: /^\/vehicle\/\{vehicleId\}\/simulation\/$/, bodies: () => [{ mode: "instant", start: DOWNTOWN, end: CLINTONVILLE, events: [{ at: 0.5, key: "VEHICLE_EVENT_HARSH_ACCEL" }] }, { mode: "instant", route: [DOWNTOWN, CLINTONVILLE] }] },
  { method: "post", path: /^\/simulation\/route\/$/, bodies: () => [{ name: "Req route", start: DOWNTOWN, end: CLINTONVILLE }] },
];

const kind = (value: unknown) => (Array.isArray(value) ? "array" : value === null ? "null" : typeof value);

/** The required members of the schema that `value` (a valid body) uses, as paths: top-level, inside the objects it sends, in each array element. */
function requiredPaths(schema: JsonSchema, value: unknown, at: Path = []): Path[] {
  if (schema.anyOf) {
    const branch = schema.anyOf.find((b) => b.type === kind(value) || (b.type === undefined && b.anyOf === undefined));
    return branch ? requiredPaths(branch, value, at) : [];
  }
  if (kind(value) === "object" && schema.properties) {
    const object = value as Record<string, unknown>;
    const own = (schema.required ?? []).map((name) => [...at, name]);
    const nested = Object.entries(schema.properties).flatMap(([name, member]) => (name in object ? requiredPaths(member, object[name], [...at, name]) : []));
    return [...own, ...nested];
  }
  if (kind(value) === "array" && schema.items) return (value as unknown[]).flatMap((element, i) => requiredPaths(schema.items!, element, [...at, i]));
  return [];
}

function without(body: unknown, path: Path): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  delete node[path.at(-1)!];
  return copy;
}

describe("a missing required field → 400 VALIDATION, REQUIRED for exactly that field", () => {
  let operations: { method: string; path: string; schema: JsonSchema; clientOnly: boolean }[];
  let fill: (path: string) => string;
  let tokens: { client: string; user: string };

  beforeAll(async () => {
    const doc = await request("GET", `${apiBase("sandbox")}/openapi.json`);
    expect(doc.status, doc.text).toBe(200);
    operations = Object.entries(doc.body.paths as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => op.requestBody)
        .map(([method, op]) => ({ method, path, schema: op.requestBody!.content["application/json"].schema, clientOnly: "403" in op.responses })),
    );

    const driver = await createDriver("sandbox", apps().main.sandbox);
    const { vehicleId } = await addVehicle("sandbox", driver.accessToken);
    const subscribe = async (prefix: string, type: string) => {
      const res = await api("sandbox").post(`${prefix}/eventSubscription/${type}/`, { postUrl: HTTPS }, driver.clientToken);
      expect(res.status, res.text).toBe(200);
      return res.body.subscription.id as number;
    };
    const subs = {
      vehicle: await subscribe(`/vehicle/${vehicleId}`, "WAYPOINT"),
      account: await subscribe(`/account/${driver.account.id}`, "WAYPOINT"),
      system: await subscribe("/system", "AUTHORIZATIONSTATUS"),
    };
    tokens = { client: driver.clientToken, user: driver.accessToken };
    fill = (path) => {
      const prefix = path.split("/")[1] as keyof typeof subs;
      return path
        .replace("{accountId}", String(driver.account.id))
        .replace("{vehicleId}", String(vehicleId))
        .replace("{eventType}", prefix === "system" ? "AUTHORIZATIONSTATUS" : "WAYPOINT")
        .replace("{subscriptionId}", String(subs[prefix]));
    };
  });

  it("the document lists the endpoints with a JSON body, and each has a valid body here", () => {
    expect(operations.length).toBeGreaterThanOrEqual(15);
    const missing = operations.filter((op) => !VALID.some((v) => v.method === op.method && v.path.test(op.path))).map((op) => `${op.method.toUpperCase()} ${op.path}`);
    expect(missing, "write a valid body for these operations").toEqual([]);
  });

  it("each required field left out in turn is named REQUIRED, and only it", async () => {
    const checked: string[] = [];
    for (const op of operations) {
      const { bodies } = VALID.find((v) => v.method === op.method && v.path.test(op.path))!;
      for (const body of bodies()) {
        for (const field of requiredPaths(op.schema, body)) {
          const fieldName = field.join(".");
          const res = await request(op.method.toUpperCase(), `${apiBase("sandbox")}${fill(op.path)}`, { token: op.clientOnly ? tokens.client : tokens.user, json: without(body, field) });
          expect.soft(res.status, `${op.method.toUpperCase()} ${op.path} without ${fieldName}: ${res.text}`).toBe(400);
          if (res.status === 400) expectFieldErrors(res, { [fieldName]: "REQUIRED" });
          checked.push(`${op.method.toUpperCase()} ${op.path} ${fieldName}`);
        }
      }
    }
    // The fields the issue named, as a check that the walk reaches nested members and every form.
    expect(checked).toEqual(
      expect.arrayContaining([
        "POST /account/ firstName",
        "POST /vehicle/{vehicleId}/simulation/ mode",
        "POST /vehicle/{vehicleId}/simulation/ start.latitude",
        "POST /vehicle/{vehicleId}/simulation/ route.1.longitude",
        "POST /vehicle/{vehicleId}/dataSet/ timestamp",
        "POST /vehicle/{vehicleId}/dataSet/ 0.datum.0.key",
        "POST /account/{accountId}/eventSubscription/{eventType}/ deliveries.0.oauth2.redirect_uri",
        "POST /system/eventSubscription/{subscriptionId} deliveries.1.type",
        "POST /simulation/route/ end.longitude",
      ]),
    );
  });
});
