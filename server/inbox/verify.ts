import { Webhook } from "standardwebhooks";

// Whether a request's Standard Webhooks signature verifies with one of the app's signing secrets,
// judged by the `standardwebhooks` package (what a partner's receiver would use), so the inbox
// says what the partner's own check will say, timestamp tolerance (5 min) included.

export type SignatureCheck = { valid: boolean | null; note: string };

export function checkSignature({
  headers,
  body,
  secrets,
}: {
  headers: Record<string, string>;
  body: string;
  secrets: { secret: string; expiresAt: Date | null }[];
}): SignatureCheck {
  if (!headers["webhook-signature"] && !headers["webhook-id"] && !headers["webhook-timestamp"])
    return { valid: null, note: "Not signed: no webhook-id, webhook-timestamp or webhook-signature header." };
  if (secrets.length === 0) return { valid: false, note: "The app has no signing secret to verify with." };
  let lastError = "";
  for (const { secret, expiresAt } of secrets) {
    try {
      new Webhook(secret).verify(body, headers);
      return {
        valid: true,
        note: expiresAt
          ? `Verifies with the previous signing secret (signs until ${expiresAt.toISOString()}).`
          : "Verifies with the app's current signing secret.",
      };
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
  }
  return { valid: false, note: `Does not verify with the app's signing secret: ${lastError}` };
}
