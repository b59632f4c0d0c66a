import { Webhook } from "standardwebhooks";
import type { webhooks } from "./generated/openapi.js";

// Webhooks on the receiving end (docs/sdk.md#webhooks): every delivery is signed the Standard Webhooks way
// with the app's signing secret (whsec_…); verifyWebhook checks the signature and the timestamp (5 minutes'
// tolerance) with the standardwebhooks library and returns the body, typed by the event catalog.

type Body<T extends keyof webhooks> = webhooks[T] extends {
  post: { requestBody: { content: { "application/json": infer B } } };
}
  ? B
  : never;

/** A webhook body of any type; narrow on `_type`. */
export type WebhookEvent = { [T in keyof webhooks]: Body<T> }[keyof webhooks];
export type WebhookEventOf<T extends WebhookEvent["_type"]> = Extract<WebhookEvent, { _type: T }>;

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string {
  if (headers instanceof Headers) return headers.get(name) ?? "";
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? (value[0] ?? "") : (value ?? "");
}

/** Verifies a delivery (throws WebhookVerificationError) and returns its parsed body. */
export function verifyWebhook(secret: string, headers: HeaderBag, body: string | Buffer): WebhookEvent {
  return new Webhook(secret).verify(typeof body === "string" ? body : body.toString("utf8"), {
    "webhook-id": header(headers, "webhook-id"),
    "webhook-timestamp": header(headers, "webhook-timestamp"),
    "webhook-signature": header(headers, "webhook-signature"),
  }) as WebhookEvent;
}

/** The webhook-* headers a delivery of this body carries (what `wayline listen` sends to a local receiver). */
export function signWebhook(secret: string, id: string, body: string, at = new Date()): Record<string, string> {
  const timestamp = new Date(Math.floor(at.getTime() / 1000) * 1000);
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp.getTime() / 1000),
    "webhook-signature": new Webhook(secret).sign(id, timestamp, body),
  };
}

export { WebhookVerificationError } from "standardwebhooks";
