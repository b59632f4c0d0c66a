import { z } from "zod";
import { accountOperations } from "@/server/accounts/operations";
import { deviceOperations } from "@/server/devices/operations";
import type { Environment } from "@/db/schema";
import { MAX_BODY_BYTES } from "@/server/http/body";
import { errorBody } from "@/server/http/error-body";
import { ApiError, notFound, uniqueError, validationError } from "@/common/http/errors";
import type { Operation } from "@/common/http/operation";
import { simulatorOperations } from "@/server/simulator/operations";
import { telemetryOperations } from "@/server/telemetry/operations";
import { vehicleOperations } from "@/server/vehicles/operations";
import { eventOperations } from "@/server/subscriptions/operations";
import { operationExample, type OperationExample } from "./examples";
import { toSchema } from "./json-schema";
import { webhookEntries } from "./webhooks";

// The OpenAPI 3.1 document, generated from the same operation objects and zod schemas the route
// wrapper parses with, so the reference cannot drift from the code.

export const allOperations: Operation[] = [
  ...Object.values(accountOperations),
  ...Object.values(vehicleOperations),
  ...Object.values(deviceOperations),
  ...Object.values(telemetryOperations),
  ...eventOperations,
  ...Object.values(simulatorOperations),
];

type JsonSchema = {
  anyOf?: JsonSchema[];
  const?: unknown;
  type?: unknown;
  description?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
};

// An update body's clearable field is `"" | text` to zod; a reader needs "text, and "" clears it".
function readableBody(schema: JsonSchema): JsonSchema {
  const properties =
    schema.properties && Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, readableBody(v)]));
  const out: JsonSchema = {
    ...schema,
    ...(properties ? { properties } : {}),
    ...(schema.items ? { items: readableBody(schema.items) } : {}),
  };
  const alternatives = schema.anyOf;
  if (!alternatives?.some((a) => a.const === "")) return out;
  const rest = alternatives.filter((a) => a.const !== "");
  const { anyOf: _dropped, ...others } = out;
  const note = 'Send "" to clear it.';
  const merged = rest.length === 1 ? { ...others, ...rest[0] } : { ...others, anyOf: rest };
  return { ...merged, description: merged.description ? `${merged.description} ${note}` : note };
}

const errorSchema = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["httpStatus", "errorCode", "detail", "errorDisplay", "fieldErrors"],
      properties: {
        httpStatus: { type: "integer" },
        errorCode: {
          type: "string",
          enum: [
            "VALIDATION",
            "UNAUTHORIZED",
            "FORBIDDEN",
            "NOT_FOUND",
            "METHOD_NOT_ALLOWED",
            "CANNOTPERSIST",
            "CURSOR_EXPIRED",
            "TOO_LARGE",
            "UNSUPPORTED_MEDIA_TYPE",
            "RATE_LIMITED",
            "INTERNAL",
          ],
        },
        detail: { type: "string" },
        errorDisplay: { type: "string" },
        fieldErrors: {
          type: "array",
          items: {
            type: "object",
            properties: {
              fieldName: { type: "string" },
              errorCode: { type: "string", enum: ["REQUIRED", "INVALID", "TOO_LONG", "UNIQUE"] },
              errorDisplay: { type: "string" },
            },
          },
        },
      },
    },
  },
};

const pagingAction = z.object({
  name: z.enum(["next", "previous"]),
  uri: z.url(),
  methods: z.null(),
  inputs: z.null(),
});

/** The 200 body of an operation, envelope included, as a zod schema (the document's schema and the examples' test). */
export function responseSchema(op: Operation): z.ZodType {
  if (op.response === "result")
    return z.object({ result: z.literal("OK"), totalRecords: z.literal(1), actions: z.array(pagingAction).max(0) });
  const { key, schema, list, members, stream } = op.response;
  // A stream's messages each carry one of these as data.
  if (stream) return schema;
  if (members)
    return z.object({
      [key]: z.array(schema),
      ...members,
      totalRecords: z.number().int().describe("Records on this page"),
      actions: z.array(pagingAction).max(0),
    });
  return z.object({
    [key]: list ? z.array(schema) : schema,
    totalRecords: list
      ? z.number().int().describe("Records matching the query, over all pages")
      : z.number().int().nullable(),
    actions: z.array(pagingAction).describe("Links to the next and previous page of a list"),
  });
}

function parameters(op: Operation, example: OperationExample) {
  const out: Record<string, unknown>[] = [];
  const add = (schema: z.ZodType | undefined, where: "path" | "query", values: Record<string, unknown>) => {
    if (!schema) return;
    const json = toSchema(schema, "input") as { properties?: Record<string, unknown>; required?: string[] };
    // A parameter reads best as what it becomes (integerish → integer 0…2^31−1, not "any of number
    // or digits"); where the output is a transform's (a Date, an event type), as what it accepts.
    const parsed = toSchema(schema, "output") as { properties?: Record<string, Record<string, unknown>> };
    for (const [name, s] of Object.entries(json.properties ?? {})) {
      const output = parsed.properties?.[name];
      const shown = output && typeof output.type === "string" ? output : s;
      out.push({
        name,
        in: where,
        required: where === "path" || (json.required ?? []).includes(name),
        schema: shown,
        ...(name in values ? { example: values[name] } : {}),
      });
    }
  };
  add(op.params, "path", example.params);
  add(op.query, "query", example.query);
  return out;
}

// An error answer of one status, with a body as the service writes it (server/http/error-body.ts).
function errorResponse(description: string, error: ApiError) {
  return {
    description,
    content: {
      "application/json": {
        schema: { $ref: "#/components/schemas/Error" },
        examples: { [error.code]: { value: errorBody(error) } },
      },
    },
  };
}

// The 200 answer: JSON in the envelope, or for a stream Server-Sent Events whose data is the schema.
function success(op: Operation, example: OperationExample) {
  if (op.response !== "result" && op.response.stream) {
    const data = JSON.stringify(example.response);
    return {
      description:
        "Server-Sent Events: each message's `id` is the event's cursor, `event` its type and `data` the " +
        "event JSON (`x-event-data`); comment lines (`: heartbeat`) keep the connection open.",
      content: {
        [op.response.stream]: {
          schema: { type: "string", "x-event-data": toSchema(responseSchema(op), "output") },
          examples: {
            example: {
              summary: "Example",
              value: `: stream open\n\nid: ${String(example.response.cursor)}\nevent: ${String(example.response._type)}\ndata: ${data}\n\n: heartbeat\n\n`,
            },
          },
        },
      },
    };
  }
  return {
    description: "OK",
    content: {
      "application/json": {
        schema: toSchema(responseSchema(op), "output"),
        examples: { example: { summary: "Example", value: example.response } },
      },
    },
  };
}

function firstField(op: Operation): string {
  const shape = (op.body as { shape?: Record<string, unknown> } | undefined)?.shape;
  return (shape && Object.keys(shape)[0]) ?? "timestamp";
}

// The reference's introduction, in Markdown (the renderer shows it above the operations).
function introduction(environment: Environment, origin: string): string {
  const prefix = environment === "sandbox" ? "/sandbox" : "";
  return [
    "Connected-vehicle accounts, vehicles, their data and notifications about them.",
    "",
    `Every call carries \`Authorization: Bearer <token>\`, a token from ` +
      `\`${origin}${prefix}/oauth/token\`. Every path answers the same with or without a trailing slash.`,
    "",
    "## Environments",
    "",
    "| | Production | Sandbox |",
    "| --- | --- | --- |",
    `| REST API | \`${origin}/v1/api\` | \`${origin}/sandbox/api\` |`,
    `| Authorization page | \`${origin}/OAuth/authorize\` | \`${origin}/sandbox/OAuth/authorize\` |`,
    `| Token | \`${origin}/oauth/token\` | \`${origin}/sandbox/oauth/token\` |`,
    `| Revocation | \`${origin}/oauth/revoke\` | \`${origin}/sandbox/oauth/revoke\` |`,
    "",
    "Every account, vehicle, token and subscription belongs to one environment; a token used on the other gets 401.",
    "",
    "## Errors",
    "",
    "Every error has the body " +
      '`{"error":{"httpStatus","errorCode","detail","errorDisplay","fieldErrors":[…]}}`: 400 `VALIDATION`, ' +
      "401 `UNAUTHORIZED`, 403 `FORBIDDEN`, 404 `NOT_FOUND` (also for ids you may not see), 405, 409 " +
      "`CANNOTPERSIST`, 410 `CURSOR_EXPIRED` (an event-feed cursor older than the feed keeps), 413, 415, " +
      "429 `RATE_LIMITED`, 500 `INTERNAL` (with `Retry-After` when the database is out of reach for the " +
      "moment: retry then). The OAuth endpoints answer RFC 6749 errors instead.",
    "",
    "## Guides",
    "",
    "[Quickstart](/docs/guides/quickstart) · [OAuth flows](/docs/guides/oauth) · [Verifying webhook " +
      "signatures](/docs/guides/webhook-signatures) · [The sandbox simulator](/docs/guides/simulator)",
  ].join("\n");
}

// The traffic simulator exists in the sandbox only (docs/api.md#environments-and-base-paths): production's document omits it.
const sandboxOnly = new Set<Operation>(Object.values(simulatorOperations));

export function openApiDocument(environment: Environment, origin: string) {
  const base = environment === "production" ? "/v1/api" : "/sandbox/api";
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of allOperations) {
    if (environment === "production" && sandboxOnly.has(op)) continue;
    const item = (paths[op.path] ??= {});
    const example = operationExample(op);
    item[op.method.toLowerCase()] = {
      tags: [op.tag],
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      operationId: `${op.method.toLowerCase()}${op.path
        .replace(/[{}]/g, "")
        .replace(/\/(\w)/g, (_, c: string) => c.toUpperCase())
        .replace(/\//g, "")}`,
      parameters: parameters(op, example),
      ...(op.body
        ? {
            requestBody: {
              required: true,
              content: {
                "application/json": {
                  schema: readableBody(toSchema(op.bodyDoc ?? op.body, "input")),
                  examples: { example: { summary: "Example", value: example.body }, ...example.moreBodies },
                },
              },
            },
          }
        : {}),
      responses: {
        "200": success(op, example),
        ...(op.response !== "result" && (op.response.members || op.response.stream)
          ? {
              "410": errorResponse(
                "A cursor older than the feed keeps (`CURSOR_EXPIRED`): restart with `since`",
                new ApiError(
                  "CURSOR_EXPIRED",
                  "The cursor is older than the 7 days the feed keeps: restart with since=<DateTime> (the time up to " +
                    "which you have the events) instead of after.",
                ),
              ),
            }
          : {}),
        "400": errorResponse(
          "Invalid input (`VALIDATION`), with `fieldErrors`",
          validationError([
            { fieldName: firstField(op), errorCode: "REQUIRED", errorDisplay: `${firstField(op)} is required.` },
          ]),
        ),
        "401": errorResponse(
          "Missing, invalid or expired token, or a token of the other environment",
          new ApiError("UNAUTHORIZED", "An access token is required."),
        ),
        ...(op.auth === "client"
          ? {
              "403": errorResponse(
                "A user token where a client-credentials token is required",
                new ApiError("FORBIDDEN", "This call requires a client-credentials token."),
              ),
            }
          : {}),
        "404": errorResponse(
          "Unknown id, or one the caller may not see",
          notFound(op.tag.toLowerCase().replace(/s$/, "")),
        ),
        ...(op.method === "POST"
          ? {
              "409": errorResponse(
                "Uniqueness (`CANNOTPERSIST`, field code `UNIQUE`)",
                uniqueError(firstField(op), `This ${firstField(op)} is already taken.`),
              ),
              "413": errorResponse(
                "Body over 1 MiB",
                new ApiError("TOO_LARGE", `The request body is larger than ${MAX_BODY_BYTES} bytes.`),
              ),
              "415": errorResponse(
                "Not JSON",
                new ApiError(
                  "UNSUPPORTED_MEDIA_TYPE",
                  "The request body must be JSON (Content-Type: application/json).",
                ),
              ),
            }
          : {}),
        "429": {
          ...errorResponse(
            "Over the token's, the client's or (without a working token) the address's rate limit (`RATE_LIMITED`)",
            new ApiError("RATE_LIMITED", "Too many requests for this access token. Retry after 3 seconds."),
          ),
          headers: { "Retry-After": { description: "Seconds until a request fits", schema: { type: "integer" } } },
        },
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: `Wayline API (${environment})`,
      version: "1.0.0",
      description: introduction(environment, origin),
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
      {
        name: "Event feed",
        description:
          "The app's events in commit order, read by cursor: every event once, also while writes commit concurrently.",
      },
      {
        name: "Webhooks",
        description:
          "What your receivers get: one entry per event type, the JSON body each HTTP_POST delivery carries " +
          "(the same as the event feed's events), signed with Standard Webhooks headers.",
      },
      ...(environment === "sandbox"
        ? [
            {
              name: "Simulator",
              description: "Sandbox traffic simulator. Road data © OpenStreetMap contributors, ODbL 1.0.",
            },
          ]
        : []),
    ],
    paths,
    webhooks: webhookEntries(),
    components: {
      schemas: { Error: errorSchema },
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "An opaque access token (86400 s) from the token endpoint.",
        },
        oauth2: {
          type: "oauth2",
          flows: {
            clientCredentials: {
              tokenUrl: `${origin}${environment === "sandbox" ? "/sandbox" : ""}/oauth/token`,
              scopes: {},
            },
            // docs/oauth.md#scopes: a request without scope gets all of them, location precise.
            authorizationCode: {
              authorizationUrl: `${origin}${environment === "sandbox" ? "/sandbox" : ""}/oauth/authorize`,
              tokenUrl: `${origin}${environment === "sandbox" ? "/sandbox" : ""}/oauth/token`,
              scopes: {
                "location:precise": "Positions as stored",
                "location:approximate": "Positions rounded to 2 decimal places (about 1 km); trips without a path",
                "location:none": "No positions",
                data: "Vehicle data: data sets, data points, trips, data events",
                account: "Account fields",
              },
            },
          },
        },
      },
    },
  };
}
