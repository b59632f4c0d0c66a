import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { webhookEntries } from "@/server/openapi/webhooks";

// Every webhook the test suite causes is checked against the event catalog, so the catalog cannot lie
// (docs/sdk.md#the-event-catalog): the HTTPS receiver hands each signed body here, this validates it with
// ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1) against the schema of its `_type` taken from the
// documents' `webhooks`, and a mismatch fails the test that caused it (webhook-check-setup.ts) and the
// receiver's close(). The record of problems is webhook-problems.ts: the setup file that reads it
// runs in every integration file, and this module (ajv and the catalog's schemas) is loaded only
// where a receiver starts.

type Entry = { post: { requestBody: { content: { "application/json": { schema: object } } } } };

let validators: Map<string, ValidateFunction> | undefined;

function validatorFor(type: string): ValidateFunction | undefined {
  if (!validators) {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    validators = new Map(
      Object.entries(webhookEntries() as Record<string, Entry>).map(([t, entry]) => [
        t,
        ajv.compile(entry.post.requestBody.content["application/json"].schema),
      ]),
    );
  }
  return validators.get(type);
}

/** What is wrong with a delivered body, or null when it satisfies its type's schema. */
export function webhookBodyProblem(body: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `not JSON: ${body.slice(0, 200)}`;
  }
  const type = (parsed as { _type?: unknown } | null)?._type;
  if (typeof type !== "string") return `no _type: ${body.slice(0, 200)}`;
  const validate = validatorFor(type);
  if (!validate) return `${type} has no entry in the event catalog`;
  if (validate(parsed)) return null;
  const errors = (validate.errors ?? []).map(
    (e) => `${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`,
  );
  return `${type} body does not match its schema: ${errors.join("; ")}\n${body.slice(0, 1000)}`;
}
