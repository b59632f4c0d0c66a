import webPush from "web-push";
import { postHttps, type DeliveryNetwork } from "@/server/delivery/https-client";
import type { PushPayload } from "./schemas";
import type { VapidKeys } from "./vapid";

// One message to one subscription (RFC 8030 §5): web-push encrypts the payload for the browser's keys
// (aes128gcm, RFC 8188 and RFC 8291) and signs the VAPID token (RFC 8292); the POST itself goes
// through the delivery's HTTPS client, so a push endpoint meets the same SSRF guard, certificate
// check and 10-second bound as a webhook.

// Alerts are worth showing for as long as the delivery would retry them (about a day); past that the
// alert list on the driver site still has them.
const TTL_SECONDS = 24 * 60 * 60;

export type PushTarget = { endpoint: string; p256dh: string; auth: string };
export type PushOutcome =
  | { kind: "sent"; status: number }
  /** 404 or 410 (RFC 8030 §7.3): the subscription has expired or was withdrawn. */
  | { kind: "gone"; status: number }
  | { kind: "failed"; reason: string };

export async function pushMessage({
  target,
  payload,
  keys,
  network,
}: {
  target: PushTarget;
  payload: PushPayload;
  keys: VapidKeys;
  network: DeliveryNetwork;
}): Promise<PushOutcome> {
  const details = webPush.generateRequestDetails(
    { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
    JSON.stringify(payload),
    {
      vapidDetails: keys,
      contentEncoding: "aes128gcm",
      TTL: TTL_SECONDS,
      // RFC 8030 §5.3: "high" is for time-sensitive alerts, which these are.
      urgency: "high",
    },
  );
  // postHttps counts the body's length itself.
  const headers = Object.fromEntries(
    Object.entries(details.headers)
      .filter(([name]) => name.toLowerCase() !== "content-length")
      .map(([name, value]) => [name, String(value)]),
  );
  const answer = await postHttps({ url: details.endpoint, headers, body: details.body, network });
  // The endpoint is a capability: reasons name only its host.
  const host = new URL(target.endpoint).host;
  if (!answer.ok) return { kind: "failed", reason: `${host}: ${answer.error}` };
  if (answer.status >= 200 && answer.status < 300) return { kind: "sent", status: answer.status };
  if (answer.status === 404 || answer.status === 410) return { kind: "gone", status: answer.status };
  return {
    kind: "failed",
    reason: `${host}: HTTP ${answer.status}${answer.excerpt ? ` ${answer.excerpt.slice(0, 200)}` : ""}`,
  };
}
