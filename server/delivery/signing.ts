import { createHmac, randomBytes } from "node:crypto";

// Standard Webhooks signatures (https://www.standardwebhooks.com): HMAC-SHA256 over
// `${webhook-id}.${webhook-timestamp}.${body}` with the base64 key after `whsec_`, sent as
// `v1,<base64>`; one entry per secret in use, space-separated (rotation).

export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

export type Signed = { id: string; timestamp: number; signedContent: string; signature: string };

export function signWebhook({
  id,
  timestamp,
  body,
  secrets,
}: {
  id: string;
  timestamp: number;
  body: string;
  secrets: string[];
}): Signed {
  if (secrets.length === 0) throw new Error("no signing secret for this app");
  const signedContent = `${id}.${timestamp}.${body}`;
  const signature = secrets
    .map((secret) => {
      const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");
      return `v1,${createHmac("sha256", key).update(signedContent).digest("base64")}`;
    })
    .join(" ");
  return { id, timestamp, signedContent, signature };
}
