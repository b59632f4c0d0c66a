import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import { allOperations, responseSchema } from "@/server/openapi/document";
import { operationExample } from "@/server/openapi/examples";
import { request } from "@/test/helpers/api";
import { resolveCriteria } from "@/server/subscriptions/criteria";
import type { Criteria } from "@/server/subscriptions/schemas";

// The reference's promise: every operation of the served OpenAPI documents has a response schema and
// an example, and each example is one the operation's own zod schemas accept (request) or describe
// (response), so the examples in /docs cannot drift from the code.

type MediaType = { schema?: unknown; examples?: Record<string, { value: unknown }> };
const exampleOf = (media: MediaType | undefined) => Object.values(media?.examples ?? {})[0]?.value;
type OpenApiOperation = {
  parameters: { name: string; in: string; example?: unknown }[];
  requestBody?: { content: { "application/json": MediaType } };
  responses: Record<string, { content?: { "application/json"?: MediaType; "text/event-stream"?: MediaType } }>;
};

async function served(env: "sandbox" | "v1") {
  const reply = await request("GET", `${inject("baseUrl")}/${env}/api/openapi.json`);
  expect(reply.status).toBe(200);
  return reply.body as { paths: Record<string, Record<string, OpenApiOperation>>; servers: { url: string }[] };
}

describe("OpenAPI document: schemas and examples", () => {
  it("the sandbox document has a 200 schema and example, error examples and parameter examples for every operation", async () => {
    const doc = await served("sandbox");
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, op })),
    );
    expect(operations.length).toBe(allOperations.length);
    for (const { where, op } of operations) {
      const content = op.responses["200"]?.content;
      // The event stream answers Server-Sent Events: its example is the stream's text.
      const ok = content?.["application/json"] ?? content?.["text/event-stream"];
      expect(ok?.schema, where).toBeTypeOf("object");
      expect(exampleOf(ok), where).toBeTypeOf(content?.["text/event-stream"] ? "string" : "object");
      for (const status of ["400", "401", "404"]) {
        const error = exampleOf(op.responses[status]?.content?.["application/json"]) as
          { error: { httpStatus: number } } | undefined;
        expect(error?.error.httpStatus, `${where} ${status}`).toBe(Number(status));
      }
      for (const p of op.parameters.filter((p) => p.in === "path"))
        expect(p.example, `${where} ${p.name}`).toBeDefined();
      if (op.requestBody) expect(exampleOf(op.requestBody.content["application/json"]), where).toBeTypeOf("object");
      // Where subscriptions are made on a vehicle or an account, a polygon GEOFENCE is shown too.
      if (/^POST \/(vehicle|account)\/.*\/eventSubscription\/\{eventType\}\/$/.test(where))
        expect(op.requestBody?.content["application/json"].examples?.polygonGeofence?.value, where).toHaveProperty(
          "polygon",
        );
    }
    expect(doc.servers[0]!.url).toBe(`${inject("baseUrl")}/sandbox/api`);
  });

  it("the production document carries the same examples (without the sandbox-only simulator)", async () => {
    const doc = await served("v1");
    const ops = Object.values(doc.paths).flatMap((item) => Object.values(item));
    expect(ops.length).toBeGreaterThan(0);
    for (const op of ops) {
      const content = op.responses["200"]?.content;
      // The event stream answers Server-Sent Events: its example is the stream's text.
      if (content?.["text/event-stream"])
        expect(exampleOf(content["text/event-stream"])).toMatch(/^id: .+\nevent: .+\ndata: \{/m);
      else expect(exampleOf(content?.["application/json"])).toBeTypeOf("object");
    }
    expect(Object.keys(doc.paths).some((p) => p.includes("simulation"))).toBe(false);
  });

  it.each(allOperations.map((op) => [`${op.method} ${op.path}`, op] as const))(
    "%s: its example passes its own zod schemas",
    (_, op) => {
      const example = operationExample(op);
      if (op.params) expect(op.params.safeParse(example.params).error).toBeUndefined();
      if (op.query) expect(op.query.safeParse(example.query).error).toBeUndefined();
      if (op.body) expect(op.body.safeParse(example.body).error).toBeUndefined();
      for (const [name, more] of Object.entries(example.moreBodies ?? {})) {
        const parsed = op.body!.safeParse(more.value);
        expect(parsed.error, name).toBeUndefined();
        // The polygon example is a whole GEOFENCE: its type's criteria hold too.
        if (name === "polygonGeofence")
          expect(resolveCriteria("GEOFENCE", parsed.data as Criteria), name).toHaveProperty("criteria.polygon");
      }
      const response = responseSchema(op).safeParse(example.response);
      expect(response.error).toBeUndefined();
    },
  );

  it("update examples change one field and never clear one (an echoed empty deviceId would detach the device)", () => {
    for (const op of allOperations.filter((o) => o.method === "POST" && o.path.endsWith("}") && o.body)) {
      const body = operationExample(op).body as Record<string, unknown>;
      for (const [field, value] of Object.entries(body)) expect(value, `${op.path} ${field}`).not.toBe("");
      if (op.tag === "Vehicles" || op.tag === "Accounts") expect(Object.keys(body)).toHaveLength(1);
    }
  });
});
