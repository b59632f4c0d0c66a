import { webhookBodies, webhookExample } from "@/common/notifications/catalog";
import { EVENT_TYPES, type EventType } from "@/common/subscriptions/event-types";
import { toSchema } from "./json-schema";

// The OpenAPI 3.1 `webhooks` of both documents (docs/sdk.md#the-event-catalog): one entry per event type,
// whose body schema is the event catalog's (common/notifications/catalog.ts), the same schemas the test
// suite's receiver validates every delivered body against.

const SIGNATURE_HEADERS = [
  ["webhook-id", "The event's id (eventId): receivers dedupe on it, since delivery is at-least-once"],
  ["webhook-timestamp", "Unix seconds when this attempt was signed"],
  ["webhook-signature", "`v1,<base64 HMAC-SHA256>` of `{id}.{timestamp}.{body}` with the app's signing secret"],
] as const;

function describe(type: string): string {
  const info = EVENT_TYPES[type as EventType];
  if (!info)
    return (
      `An app event: sent to the app's event endpoint (set in the console) and shown in its event feed; ` +
      `${type === "ACCESSREVOKED" ? "a driver or the app revoked the app's access to an account" : "a driver deleted an account the app could reach"}. ` +
      `Carries these four fields and nothing else.`
    );
  return (
    `Sent to every HTTP_POST delivery of a ${type} subscription (scopes: ` +
    `${info.scopes.join(", ").toLowerCase()}; periods: ${info.periods.join(", ")}). Answer any 2xx ` +
    `within 10 s; other answers are retried or deactivate the delivery (see Delivery).`
  );
}

export function webhookEntries(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(webhookBodies).map(([type, body]) => [
      type,
      {
        post: {
          operationId: `webhook${type}`,
          tags: ["Webhooks"],
          summary: `${type} event`,
          description: describe(type),
          parameters: SIGNATURE_HEADERS.map(([name, description]) => ({
            name,
            in: "header",
            required: true,
            description,
            schema: { type: "string" },
          })),
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: toSchema(body, "output"),
                examples: {
                  example: { summary: "Example", value: webhookExample(type as Parameters<typeof webhookExample>[0]) },
                },
              },
            },
          },
          responses: { "200": { description: "Received (any 2xx counts as delivered)" } },
        },
      },
    ]),
  );
}
