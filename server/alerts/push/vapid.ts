import { createECDH } from "node:crypto";
import path from "node:path";
import webPush from "web-push";
import { z } from "zod";
import { env } from "@/server/platform/env";
import { dataDirSecret } from "@/server/platform/security/data-dir-secret";
import { publicOrigin } from "@/server/platform/request/public-origin";

// The application server's VAPID key pair (RFC 8292): push services accept a message for a
// subscription only when it is signed with the key the browser subscribed with, so the pair is
// made once and kept like the session secret (generated on first start under DATA_DIR, or given by
// VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY). A new pair silently orphans every subscription made
// with the old one (docs/browser-notifications.md#the-vapid-keys).

const FILE = "vapid-keys.json";

const keyPair = z.object({
  publicKey: z.string().regex(/^[A-Za-z0-9_-]{87}$/),
  privateKey: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
});
export type VapidKeys = z.infer<typeof keyPair> & { subject: string };

let cached: VapidKeys | undefined;

export function vapidKeys(): VapidKeys {
  if (cached) return cached;
  const config = env();
  if ((config.VAPID_PUBLIC_KEY === undefined) !== (config.VAPID_PRIVATE_KEY === undefined))
    throw new Error("Set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or neither (then a pair is kept in DATA_DIR).");
  const pair =
    config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY
      ? { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY }
      : keptPair(config.dataDir);
  if (!pairMatches(pair))
    throw new Error(
      "The VAPID public key is not the private key's: give both of one pair (web-push generate-vapid-keys).",
    );
  return (cached = { ...pair, subject: config.VAPID_SUBJECT ?? defaultSubject(publicOrigin()) });
}

function keptPair(dataDir: string): z.infer<typeof keyPair> {
  const text = dataDirSecret(dataDir, FILE, () => JSON.stringify(webPush.generateVAPIDKeys()));
  const parsed = keyPair.safeParse(JSON.parse(text));
  if (!parsed.success)
    throw new Error(
      `${path.join(dataDir, FILE)} holds no usable VAPID key pair: delete it to have a new one generated ` +
        "(every browser then has to turn notifications on again).",
    );
  return parsed.data;
}

function pairMatches({ publicKey, privateKey }: z.infer<typeof keyPair>): boolean {
  const ecdh = createECDH("prime256v1");
  try {
    ecdh.setPrivateKey(Buffer.from(privateKey, "base64url"));
  } catch {
    return false;
  }
  return ecdh.getPublicKey().equals(Buffer.from(publicKey, "base64url"));
}

/** RFC 8292 §2.1: an https: origin is a contact as it is; a plain http: one (development) is not. */
function defaultSubject(origin: string): string {
  const url = new URL(origin);
  return url.protocol === "https:" ? url.origin : `mailto:postmaster@${url.hostname}`;
}
