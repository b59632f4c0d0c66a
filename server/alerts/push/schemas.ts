import { ECDH } from "node:crypto";
import { z } from "zod";
import { CONTROL_CHARACTER, CONTROL_CHARACTER_MESSAGE } from "@/common/http/fields";

// What the driver site's browser notification switch sends: the browser's PushSubscription as its
// toJSON() gives it (endpoint, expirationTime, keys), and the endpoint alone to unsubscribe. Where the
// endpoint may point (https, no private address) is the service's decision (service.ts), which uses
// the delivery's SSRF gate.

const base64url = (bytes: number, what: string, check?: (raw: Buffer) => boolean) =>
  z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, "Must be base64url.")
    .refine((value) => {
      const raw = Buffer.from(value.replace(/=+$/, ""), "base64url");
      return raw.length === bytes && (check?.(raw) ?? true);
    }, `Must be ${what}.`);

// An uncompressed P-256 point that is on the curve: ECDH.convertKey refuses any other.
const isP256Point = (raw: Buffer) => {
  if (raw[0] !== 0x04) return false;
  try {
    ECDH.convertKey(raw, "prime256v1");
    return true;
  } catch {
    return false;
  }
};

const endpoint = z
  .string()
  .min(1)
  .max(2048, "Must be at most 2048 characters.")
  .refine((v) => !CONTROL_CHARACTER.test(v), CONTROL_CHARACTER_MESSAGE);

export const subscribeBody = z.object({
  endpoint,
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    p256dh: base64url(65, "the browser's P-256 public key (65 bytes, uncompressed)", isP256Point),
    auth: base64url(16, "the 16-byte authentication secret"),
  }),
});

export const unsubscribeBody = z.object({ endpoint });

const MAX = { title: 100, body: 500, url: 500 };

/**
 * What a browser notification shows, and where a click on it goes (a path of the driver site, or an
 * absolute URL on it). The limits keep the encrypted message within the 4,096 bytes push services
 * must accept (RFC 8291 §4: at most 3,993 bytes of plaintext) whatever the characters.
 */
export const pushPayload = z.object({
  title: z.string().min(1).max(MAX.title),
  body: z.string().max(MAX.body),
  url: z.string().min(1).max(MAX.url),
});
export type PushPayload = z.infer<typeof pushPayload>;
