import { serializeEventBody, type NotificationRow } from "@/server/notifications/serialize";
import type { LocationPrecision } from "@/common/oauth/grant-scope";
import type { AttemptRecord } from "./attempts";
import { postHttps, type DeliveryNetwork } from "./https-client";
import { postToInbox } from "./inbox-target";
import { oauth2Schema } from "./oauth2-refresh";
import { refreshOnce } from "./oauth2-single-flight";
import { updatePostUrl, type DeliveryRow } from "./queries";
import { classifyStatus, parseRetryAfter } from "./retry-policy";
import { signWebhook } from "./signing";
import { checkTarget } from "./ssrf";

// One HTTP_POST delivery of one notification (docs/delivery.md#http_post): sign, POST, and act on the answer —
// follow redirects, refresh an OAuth 2.0 token after a 401, and say whether the notification got
// through, should be retried, or the delivery must be deactivated.

type SendOutcome =
  | { kind: "delivered" }
  | { kind: "retry"; error: string; retryAfterMs: number | null }
  | { kind: "deactivate"; reason: string };

export type SendResult = { outcome: SendOutcome; attempts: AttemptRecord[]; lastStatus: number | null };

type Ids = { notificationDeliveryId: number; notificationId: number; deliveryId: number };

const MAX_LEGS = 5;

export async function sendHttpPost({
  ids,
  delivery,
  notification,
  precision,
  secrets,
  network,
  now = () => new Date(),
}: {
  ids: Ids;
  delivery: DeliveryRow;
  notification: NotificationRow;
  /** The app's grant for the notification's account (docs/oauth.md#scopes). */
  precision: LocationPrecision;
  secrets: string[];
  network: DeliveryNetwork;
  now?: () => Date;
}): Promise<SendResult> {
  const attempts: AttemptRecord[] = [];
  // An app event's body is its four fields alone (server/notifications/app-events.ts); a
  // notification's follows the app's location precision for the account.
  const body = JSON.stringify(serializeEventBody(notification, { precision }));
  const oauth2Parsed = delivery.oauth2 ? oauth2Schema.safeParse(delivery.oauth2) : null;
  if (oauth2Parsed && !oauth2Parsed.success) {
    return {
      outcome: { kind: "deactivate", reason: `oauth2 map incomplete at ${now().toISOString()}` },
      attempts,
      lastStatus: null,
    };
  }
  let oauth2 = oauth2Parsed?.data ?? null;
  let url = delivery.postUrl ?? "";
  let refreshed = false;
  let followedTemporary = false;
  let lastStatus: number | null = null;
  const extraHeaders = Object.fromEntries(
    Object.entries((delivery.postHeaders ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
  );

  for (let leg = 0; leg < MAX_LEGS; leg++) {
    const attemptedAt = now();
    const signed = signWebhook({
      id: String(notification.id),
      timestamp: Math.floor(attemptedAt.getTime() / 1000),
      body,
      secrets,
    });
    const headers: Record<string, string> = {
      ...extraHeaders,
      "content-type": "application/json",
      "user-agent": "Wayline-Webhooks/1",
      "webhook-id": signed.id,
      "webhook-timestamp": String(signed.timestamp),
      "webhook-signature": signed.signature,
    };
    if (oauth2) headers.authorization = `Bearer ${oauth2.access_token}`;
    const answer =
      (await postToInbox({ url, headers, body, appId: notification.appId, environment: notification.environment })) ??
      (await postHttps({ url, headers, body, network }));
    const record = (outcome: AttemptRecord["outcome"], extra: Partial<AttemptRecord>) =>
      attempts.push({
        ...ids,
        attemptedAt,
        target: url,
        outcome,
        httpStatus: null,
        latencyMs: answer.latencyMs,
        error: null,
        responseExcerpt: null,
        signedContent: signed.signedContent,
        signature: signed.signature,
        requestHeaders: shownHeaders(headers),
        ...extra,
      });

    if (!answer.ok) {
      if (answer.kind === "refused") {
        const reason = `Target refused at ${attemptedAt.toISOString()}: ${answer.error}`;
        record("DEACTIVATED", { error: answer.error });
        return { outcome: { kind: "deactivate", reason }, attempts, lastStatus };
      }
      record("RETRY", { error: answer.error });
      return { outcome: { kind: "retry", error: answer.error, retryAfterMs: null }, attempts, lastStatus };
    }

    lastStatus = answer.status;
    const base = { httpStatus: answer.status, responseExcerpt: answer.excerpt || null };
    const verdict = classifyStatus(answer.status);
    const location = answer.location ? resolveLocation(answer.location, url) : null;
    switch (verdict.kind) {
      case "delivered":
        record("DELIVERED", base);
        return { outcome: { kind: "delivered" }, attempts, lastStatus };
      case "permanent-redirect":
        if (!location) {
          record("RETRY", { ...base, error: `HTTP ${answer.status} without a usable Location` });
          return {
            outcome: { kind: "retry", error: `HTTP ${answer.status} without a usable Location`, retryAfterMs: null },
            attempts,
            lastStatus,
          };
        }
        record("REDIRECTED", { ...base, error: `moved permanently to ${location}` });
        // Never store a Location the guard refuses: the next leg refuses it and deactivates.
        if (isPermittedTarget(location, network))
          await updatePostUrl({ deliveryId: ids.deliveryId, postUrl: location });
        url = location;
        continue;
      case "temporary-redirect":
        if (!location || followedTemporary) {
          const error = followedTemporary
            ? `HTTP ${answer.status}: a second temporary redirect`
            : `HTTP ${answer.status} without a usable Location`;
          record("RETRY", { ...base, error });
          return { outcome: { kind: "retry", error, retryAfterMs: null }, attempts, lastStatus };
        }
        record("REDIRECTED", { ...base, error: `redirected once to ${location}` });
        followedTemporary = true;
        url = location;
        continue;
      case "unauthorized": {
        if (!oauth2 || refreshed) {
          const reason = `Receiver answered HTTP 401 at ${attemptedAt.toISOString()}${refreshed ? " after a token refresh" : ""}`;
          record("DEACTIVATED", { ...base, error: reason });
          return { outcome: { kind: "deactivate", reason }, attempts, lastStatus };
        }
        // One refresh per delivery at a time: the sends that got 401 alongside this one wait
        // for it and take the token it stored (oauth2-single-flight.ts).
        const shared = await refreshOnce({
          deliveryId: ids.deliveryId,
          refusedAccessToken: oauth2.access_token,
          network,
          now,
        });
        refreshed = true;
        if (shared.kind === "failed") {
          // Removed or deactivated meanwhile (a refresh that failed for another send, say).
          if (!shared.refresh) {
            record("DEACTIVATED", { ...base, error: shared.reason });
            return { outcome: { kind: "deactivate", reason: shared.reason }, attempts, lastStatus };
          }
          const { refresh } = shared;
          record("REFRESHED", { ...base, error: "HTTP 401: refreshing the access token" });
          attempts.push({
            ...ids,
            attemptedAt: now(),
            target: refresh.url,
            outcome: "REFRESH_FAILED",
            httpStatus: refresh.status,
            latencyMs: refresh.latencyMs,
            error: refresh.reason,
            responseExcerpt: refresh.excerpt,
            signedContent: null,
            signature: null,
          });
          return { outcome: { kind: "deactivate", reason: shared.reason }, attempts, lastStatus };
        }
        record("REFRESHED", {
          ...base,
          error:
            shared.kind === "reused"
              ? "HTTP 401: taking the access token refreshed meanwhile"
              : "HTTP 401: refreshing the access token",
        });
        oauth2 = shared.oauth2;
        continue;
      }
      case "retry": {
        const error = `HTTP ${answer.status}`;
        record("RETRY", { ...base, error });
        return {
          outcome: { kind: "retry", error, retryAfterMs: parseRetryAfter(answer.retryAfter, attemptedAt) },
          attempts,
          lastStatus,
        };
      }
      case "deactivate": {
        const reason = `Receiver answered HTTP ${answer.status} at ${attemptedAt.toISOString()}`;
        record("DEACTIVATED", { ...base, error: reason });
        return { outcome: { kind: "deactivate", reason }, attempts, lastStatus };
      }
    }
  }
  const error = `more than ${MAX_LEGS} redirects`;
  return { outcome: { kind: "retry", error, retryAfterMs: null }, attempts, lastStatus };
}

// The headers as the console shows them: an oauth2 access token is shortened to its last 4 characters.
function shownHeaders(headers: Record<string, string>): Record<string, string> {
  const shown = { ...headers };
  if (shown.authorization)
    shown.authorization = shown.authorization.replace(
      /^(Bearer )(.*)$/i,
      (_, scheme: string, token: string) => `${scheme}…${token.slice(-4)}`,
    );
  return shown;
}

function isPermittedTarget(url: string, network: DeliveryNetwork): boolean {
  try {
    checkTarget(url, network.policy);
    return true;
  } catch {
    return false;
  }
}

function resolveLocation(location: string, base: string): string | null {
  try {
    return new URL(location, base).toString();
  } catch {
    return null;
  }
}
