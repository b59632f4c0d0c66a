import { notFound, uniqueError, validationError } from "@/common/http/errors";
import { parseOrThrow } from "@/common/http/zod-errors";
import { deliveryNetwork } from "@/server/delivery/https-client";
import { checkTarget, TargetRefused } from "@/server/delivery/ssrf";
import { deleteSubscription, subscriptionsOf, upsertSubscription } from "./queries";
import { subscribeBody, unsubscribeBody } from "./schemas";
import { sendPushToAccount, type PushResult } from "./send";
import { vapidKeys } from "./vapid";

// A driver's browsers for alerts: what the switch on the driver site calls. An endpoint must be one
// the delivery may reach (https, no private or loopback address unless the operator allows the host,
// DELIVERY_ALLOWED_HOSTS), checked when it is stored and again by the guard at every connection.

export type PushSettings = {
  /** The application server key the browser subscribes with (PushManager's applicationServerKey). */
  publicKey: string;
  browsers: { id: number; label: string | null; createdAt: Date; lastSuccessAt: Date | null }[];
};

export async function pushSettings({ accountId }: { accountId: number }): Promise<PushSettings> {
  const rows = await subscriptionsOf({ accountId });
  return {
    publicKey: vapidKeys().publicKey,
    browsers: rows.map((r) => ({
      id: r.id,
      label: r.userAgentLabel,
      createdAt: r.createdAt,
      lastSuccessAt: r.lastSuccessAt,
    })),
  };
}

export async function subscribe({
  accountId,
  body,
  userAgent,
}: {
  accountId: number;
  body: unknown;
  userAgent: string | null;
}): Promise<{ id: number; label: string | null; createdAt: Date }> {
  const input = parseOrThrow(subscribeBody, body, "push subscription");
  try {
    checkTarget(input.endpoint, deliveryNetwork().policy);
  } catch (error) {
    if (!(error instanceof TargetRefused)) throw error;
    throw validationError(
      [
        {
          fieldName: "endpoint",
          errorCode: "INVALID",
          errorDisplay: `Not a push service this site sends to: ${error.message}.`,
        },
      ],
      "The push subscription has invalid fields.",
    );
  }
  const row = await upsertSubscription({
    accountId,
    endpoint: input.endpoint,
    p256dh: input.keys.p256dh.replace(/=+$/, ""),
    auth: input.keys.auth.replace(/=+$/, ""),
    userAgentLabel: userAgent ? browserLabel(userAgent) : null,
  });
  // Another driver's browser profile (a shared computer): the switch makes a new subscription for this one.
  if (!row) throw uniqueError("endpoint", "This browser's subscription belongs to another account.");
  return { id: row.id, label: row.userAgentLabel, createdAt: row.createdAt };
}

/** The driver's own subscription only: another account's endpoint is a 404, as if unknown. */
export async function unsubscribe({ accountId, body }: { accountId: number; body: unknown }): Promise<void> {
  const { endpoint } = parseOrThrow(unsubscribeBody, body, "push subscription");
  if (!(await deleteSubscription({ accountId, endpoint }))) throw notFound("push subscription");
}

/** The settings page's "send a test notification": to every browser of the driver, at once. */
export function sendTestNotification({ accountId }: { accountId: number }): Promise<PushResult> {
  return sendPushToAccount({
    accountId,
    payload: {
      title: "Wayline test notification",
      body: "Browser notifications work: your alerts will appear like this.",
      url: "/account",
    },
  });
}

/** "Firefox on Linux": enough to tell a driver's browsers apart, nothing that identifies the device. */
function browserLabel(userAgent: string): string | null {
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /Firefox\//.test(userAgent)
      ? "Firefox"
      : /Chrom(e|ium)\//.test(userAgent)
        ? "Chrome"
        : /Safari\//.test(userAgent)
          ? "Safari"
          : null;
  const system = /Android/.test(userAgent)
    ? "Android"
    : /iPhone|iPad|iPod/.test(userAgent)
      ? "iOS"
      : /Windows/.test(userAgent)
        ? "Windows"
        : /Mac OS X|Macintosh/.test(userAgent)
          ? "macOS"
          : /Linux|X11|CrOS/.test(userAgent)
            ? "Linux"
            : null;
  if (!browser && !system) return null;
  return [browser ?? "A browser", system].filter(Boolean).join(" on ");
}
