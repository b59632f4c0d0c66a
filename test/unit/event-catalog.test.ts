import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { webhookBodies, webhookExample } from "@/common/notifications/catalog";
import { EVENT_TYPE_NAMES } from "@/common/subscriptions/event-types";
import { openApiDocument } from "@/server/openapi/document";
import { webhookBodyProblem } from "@/test/helpers/webhook-schemas";

/** The app events, which have bodies of their own (docs/delivery.md#app-events). */
const APP_EVENTS = ["ACCESSREVOKED", "ACCOUNTDELETED"] as const;

// The event catalog in the OpenAPI documents (docs/sdk.md#the-event-catalog): every type has an entry in both,
// its example satisfies its own schema (by zod and by ajv), and the receiver's check refuses what it should.

type Entry = {
  post: {
    requestBody: { content: { "application/json": { schema: object; examples: { example: { value: object } } } } };
  };
};

// Built once: a document takes about a second on a busy machine.
const documents = {
  sandbox: openApiDocument("sandbox", "https://wayline.example") as {
    openapi: string;
    webhooks: Record<string, Entry>;
  },
  production: openApiDocument("production", "https://wayline.example") as {
    openapi: string;
    webhooks: Record<string, Entry>;
  },
};

describe("event catalog", () => {
  it.each(["sandbox", "production"] as const)("the %s document has one webhook per event type", (env) => {
    const doc = documents[env];
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_TYPE_NAMES, ...APP_EVENTS].sort());
  });

  it.each([...EVENT_TYPE_NAMES, ...APP_EVENTS])("%s: the example satisfies the schema, by zod and by ajv", (type) => {
    const example = webhookExample(type);
    expect(webhookBodies[type]!.safeParse(example).error).toBeUndefined();
    const entry = documents.sandbox.webhooks[type]!;
    const json = entry.post.requestBody.content["application/json"];
    expect(json.examples.example.value).toEqual(example);
    const validate = new Ajv2020({ strict: false }).compile(json.schema);
    expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
  });

  it("the receiver's check names a missing field, a wrong enum value, an unknown member and an unknown type", () => {
    const { recordedBoundaryCondition: _dropped, ...missing } = webhookExample("GEOFENCE");
    expect(webhookBodyProblem(JSON.stringify(missing))).toMatch(/recordedBoundaryCondition/);
    expect(
      webhookBodyProblem(JSON.stringify({ ...webhookExample("IGNITIONSTATUS"), ignitionStatus: "MAYBE" })),
    ).toMatch(/ignitionStatus/);
    expect(webhookBodyProblem(JSON.stringify({ ...webhookExample("WAYPOINT"), surprise: 1 }))).toMatch(/surprise/);
    expect(webhookBodyProblem(JSON.stringify({ ...webhookExample("WAYPOINT"), _type: "NOPE" }))).toMatch(/NOPE/);
    expect(webhookBodyProblem(JSON.stringify(webhookExample("LOWBATTERY")))).toBeNull();
    expect(
      webhookBodyProblem(JSON.stringify({ ...webhookExample("WAYPOINT"), recordedWaypoint: null, test: true })),
    ).toBeNull();
  });
});
