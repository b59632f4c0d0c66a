import { beforeAll, describe, expect, it } from "vitest";
import { apiBase, request } from "@/test/helpers/api";
import { expectFieldErrors } from "@/test/helpers/fixtures";
import {
  bodyFixtures,
  validBodies,
  VALID,
  type BodyOperation,
  type JsonSchema,
  type Path,
} from "@/test/helpers/json-bodies";

// Every endpoint with a JSON body, from the served OpenAPI document (generated from the zod schemas
// the route wrapper parses with, so a new endpoint is covered as soon as it exists): start from a
// valid body, leave out each required field in turn, nested ones included, and expect 400
// VALIDATION naming exactly that field REQUIRED (docs/api.md#errors).

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
    const nested = Object.entries(schema.properties).flatMap(([name, member]) =>
      name in object ? requiredPaths(member, object[name], [...at, name]) : [],
    );
    return [...own, ...nested];
  }
  if (kind(value) === "array" && schema.items)
    return (value as unknown[]).flatMap((element, i) => requiredPaths(schema.items!, element, [...at, i]));
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
  let operations: BodyOperation[];
  let fill: (path: string) => string;
  let tokens: { client: string; user: string };

  beforeAll(async () => {
    ({ operations, fill, tokens } = await bodyFixtures());
  });

  it("the document lists the endpoints with a JSON body, and each has a valid body here", () => {
    expect(operations.length).toBeGreaterThanOrEqual(15);
    const missing = operations
      .filter((op) => !VALID.some((v) => v.method === op.method && v.path.test(op.path)))
      .map((op) => `${op.method.toUpperCase()} ${op.path}`);
    expect(missing, "write a valid body for these operations").toEqual([]);
  });

  it("each required field left out in turn is named REQUIRED, and only it", async () => {
    const checked: string[] = [];
    for (const op of operations) {
      for (const body of validBodies(op)!) {
        for (const field of requiredPaths(op.schema, body)) {
          const fieldName = field.join(".");
          const res = await request(op.method.toUpperCase(), `${apiBase("sandbox")}${fill(op.path)}`, {
            token: op.clientOnly ? tokens.client : tokens.user,
            json: without(body, field),
          });
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
