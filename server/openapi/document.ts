import { z } from "zod";
import { accountOperations } from "@/server/accounts/operations";
import type { Environment } from "@/db/schema";
import type { Operation } from "@/server/http/operation";
import { simulatorOperations } from "@/server/simulator/operations";
import { telemetryOperations } from "@/server/telemetry/operations";
import { vehicleOperations } from "@/server/vehicles/operations";
import { eventOperations } from "@/server/subscriptions/operations";

// The OpenAPI 3.1 document, generated from the same operation objects and zod schemas the route
// wrapper parses with, so the reference cannot drift from the code.

export const allOperations: Operation[] = [
  ...Object.values(accountOperations),
  ...Object.values(vehicleOperations),
  ...Object.values(telemetryOperations),
  ...eventOperations,
  ...Object.values(simulatorOperations),
];

const toSchema = (schema: z.ZodType, io: "input" | "output") =>
  z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as Record<string, unknown>;

const errorSchema = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["httpStatus", "errorCode", "detail", "errorDisplay", "fieldErrors"],
      properties: {
        httpStatus: { type: "integer" },
        errorCode: { type: "string", enum: ["VALIDATION", "UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND", "METHOD_NOT_ALLOWED", "CANNOTPERSIST", "TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "RATE_LIMITED", "INTERNAL"] },
        detail: { type: "string" },
        errorDisplay: { type: "string" },
        fieldErrors: {
          type: "array",
          items: {
            type: "object",
            properties: { fieldName: { type: "string" }, errorCode: { type: "string", enum: ["REQUIRED", "INVALID", "TOO_LONG", "UNIQUE"] }, errorDisplay: { type: "string" } },
          },
        },
      },
    },
  },
};

const actionSchema = {
  type: "object",
  properties: { name: { type: "string", enum: ["next", "previous"] }, uri: { type: "string", format: "uri" }, methods: { type: "null" }, inputs: { type: "null" } },
};

function envelope(op: Operation) {
  if (op.response === "result") {
    return { type: "object", properties: { result: { const: "OK" }, totalRecords: { const: 1 }, actions: { type: "array", maxItems: 0 } } };
  }
  const member = toSchema(op.response.schema, "output");
  return {
    type: "object",
    properties: {
      [op.response.key]: op.response.list ? { type: "array", items: member } : member,
      totalRecords: op.response.list ? { type: "integer" } : { type: ["integer", "null"] },
      actions: { type: "array", items: actionSchema },
    },
  };
}

function parameters(op: Operation) {
  const out: Record<string, unknown>[] = [];
  const add = (schema: z.ZodType | undefined, where: "path" | "query") => {
    if (!schema) return;
    const json = toSchema(schema, "input") as { properties?: Record<string, unknown>; required?: string[] };
    for (const [name, s] of Object.entries(json.properties ?? {})) {
      out.push({ name, in: where, required: where === "path" || (json.required ?? []).includes(name), schema: s });
    }
  };
  add(op.params, "path");
  add(op.query, "query");
  return out;
}

const errorResponse = (description: string) => ({ description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } });

// The traffic simulator exists in the sandbox only (docs/api.md#environments-and-base-paths): production's document omits it.
const sandboxOnly = new Set<Operation>(Object.values(simulatorOperations));

export function openApiDocument(environment: Environment, origin: string) {
  const base = environment === "production" ? "/v1/api" : "/sandbox/api";
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of allOperations) {
    if (environment === "production" && sandboxOnly.has(op)) continue;
    const item = (paths[op.path] ??= {});
    item[op.method.toLowerCase()] = {
      tags: [op.tag],
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      operationId: `${op.method.toLowerCase()}${op.path.replace(/[{}]/g, "").replace(/\/(\w)/g, (_, c: string) => c.toUpperCase()).replace(/\//g, "")}`,
      parameters: parameters(op),
      ...(op.body ? { requestBody: { required: true, content: { "application/json": { schema: toSchema(op.bodyDoc ?? op.body, "input") } } } } : {}),
      responses: {
        "200": { description: "OK", content: { "application/json": { schema: envelope(op) } } },
        "400": errorResponse("Invalid input (VALIDATION), with fieldErrors"),
        "401": errorResponse("Missing, invalid or expired token, or a token of the other environment"),
        ...(op.auth === "client" ? { "403": errorResponse("A user token where a client-credentials token is required") } : {}),
        "404": errorResponse("Unknown id, or one the caller may not see"),
        ...(op.method === "POST" ? { "409": errorResponse("Uniqueness (CANNOTPERSIST, field code UNIQUE)"), "413": errorResponse("Body over 1 MiB"), "415": errorResponse("Not JSON") } : {}),
        "429": { ...errorResponse("Over the token's or the client's rate limit (RATE_LIMITED)"), headers: { "Retry-After": { description: "Seconds until a request fits", schema: { type: "integer" } } } },
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: `Wayline API (${environment})`,
      version: "1.0.0",
      description:
        "Connected-vehicle accounts and vehicles. Every call carries `Authorization: Bearer <token>` from the token endpoint. Every path answers the same with or without a trailing slash.",
    },
    servers: [{ url: `${origin}${base}`, description: environment === "production" ? "Production" : "Sandbox" }],
    security: [{ bearer: [] }],
    tags: [
      { name: "Accounts" },
      { name: "Vehicles" },
      { name: "Device data" },
      { name: "Vehicle subscriptions" },
      { name: "Account subscriptions" },
      { name: "System subscriptions" },
      ...(environment === "sandbox" ? [{ name: "Simulator", description: "Sandbox traffic simulator. Road data © OpenStreetMap contributors, ODbL 1.0." }] : []),
    ],
    paths,
    components: {
      schemas: { Error: errorSchema },
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "An opaque access token (86400 s) from the token endpoint." },
        oauth2: {
          type: "oauth2",
          flows: {
            clientCredentials: { tokenUrl: `${origin}${environment === "sandbox" ? "/sandbox" : ""}/oauth/token`, scopes: {} },
          },
        },
      },
    },
  };
}
