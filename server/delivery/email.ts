import nodemailer, { type Transporter } from "nodemailer";
import { env } from "@/server/platform/env";
import { serializeNotification, type NotificationRow } from "@/server/notifications/serialize";
import type { LocationPrecision } from "@/common/oauth/grant-scope";
import type { AttemptRecord } from "./attempts";
import type { SendResult } from "./http-post";
import type { DeliveryRow } from "./queries";

// EMAIL deliveries (docs/delivery.md#email): to `recipient`, subject `subscriberSubject` (default: a
// summary of the event), text `subscriberContent` (default: a one-line summary) followed by the
// event details. Over SMTP_URL when set; otherwise the e-mail is kept in email_outbox, written
// in the same transaction that marks the notification delivered.

const EMAIL_FROM = "Wayline notifications <notifications@wayline.invalid>";

type Email = { recipient: string; subject: string; text: string };
export type OutboxEntry = Email & { notificationDeliveryId: number; appId: number };

function composeEmail(
  delivery: Pick<DeliveryRow, "recipient" | "subscriberSubject" | "subscriberContent">,
  notification: NotificationRow,
  precision: LocationPrecision,
): Email {
  const out = serializeNotification(notification, { delivered: true, precision });
  const summary = `${out._type} event${out.vehicleId != null ? ` for vehicle ${out.vehicleId}` : ""} at ${out._timestamp}`;
  const details = Object.entries(out)
    .map(
      ([key, value]) =>
        `${key}: ${value !== null && typeof value === "object" ? JSON.stringify(value) : String(value)}`,
    )
    .join("\n");
  return {
    recipient: delivery.recipient ?? "",
    subject: delivery.subscriberSubject?.trim() || `Wayline: ${summary}`,
    text: `${delivery.subscriberContent?.trim() || `A subscription of yours fired: ${summary}.`}\n\nEvent details:\n${details}\n`,
  };
}

let transport: Transporter | undefined;

// An SMTP server that stops answering must not hold a worker's batch: connecting and the greeting
// get 10 s each, and a send gives up after 30 s of silence on the socket.
function smtpTransport(url: string): Transporter {
  transport ??= nodemailer.createTransport(
    { url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 },
    { from: EMAIL_FROM },
  );
  return transport;
}

/**
 * One e-mail over SMTP_URL, on the transport the notifications use (the driver's alerts send theirs
 * here: server/alerts/delivery/). The server's answer; null when SMTP_URL is unset, and the caller
 * keeps the e-mail in email_outbox. A failed send throws.
 */
export async function sendOverSmtp(mail: {
  from: string;
  to: string;
  subject: string;
  text: string;
  headers: Record<string, string>;
}): Promise<string | null> {
  const smtpUrl = env().SMTP_URL;
  if (!smtpUrl) return null;
  const info = await smtpTransport(smtpUrl).sendMail(mail);
  return String(info.response ?? "");
}

export async function closeEmailTransport(): Promise<void> {
  transport?.close();
  transport = undefined;
}

type Ids = { notificationDeliveryId: number; notificationId: number; deliveryId: number };

export async function sendEmail({
  ids,
  delivery,
  notification,
  precision,
  now = () => new Date(),
}: {
  ids: Ids;
  delivery: DeliveryRow;
  notification: NotificationRow;
  precision: LocationPrecision;
  now?: () => Date;
}): Promise<SendResult & { outbox?: OutboxEntry }> {
  const email = composeEmail(delivery, notification, precision);
  const attemptedAt = now();
  const started = performance.now();
  const base = {
    ...ids,
    attemptedAt,
    target: `mailto:${email.recipient}`,
    httpStatus: null,
    responseExcerpt: null,
    signedContent: null,
    signature: null,
  };
  if (!email.recipient) {
    const reason = `EMAIL delivery without a recipient at ${attemptedAt.toISOString()}`;
    return {
      outcome: { kind: "deactivate", reason },
      attempts: [{ ...base, outcome: "DEACTIVATED", latencyMs: 0, error: reason }],
      lastStatus: null,
    };
  }
  const smtpUrl = env().SMTP_URL;
  if (!smtpUrl) {
    const attempt: AttemptRecord = {
      ...base,
      target: `outbox:${email.recipient}`,
      outcome: "DELIVERED",
      latencyMs: 0,
      error: null,
    };
    return {
      outcome: { kind: "delivered" },
      attempts: [attempt],
      lastStatus: null,
      outbox: { ...email, notificationDeliveryId: ids.notificationDeliveryId, appId: notification.appId },
    };
  }
  try {
    const info = await smtpTransport(smtpUrl).sendMail({
      to: email.recipient,
      subject: email.subject,
      text: email.text,
      headers: { "X-Wayline-Notification-Id": String(notification.id) },
    });
    const latencyMs = Math.round(performance.now() - started);
    return {
      outcome: { kind: "delivered" },
      attempts: [
        {
          ...base,
          outcome: "DELIVERED",
          latencyMs,
          error: null,
          responseExcerpt: String(info.response ?? "").slice(0, 4096),
        },
      ],
      lastStatus: null,
    };
  } catch (error) {
    const latencyMs = Math.round(performance.now() - started);
    const e = error as Error & { responseCode?: number; code?: string };
    const message = `${e.code ? `${e.code}: ` : ""}${e.message}`;
    return {
      outcome: { kind: "retry", error: message, retryAfterMs: null },
      attempts: [{ ...base, outcome: "RETRY", latencyMs, error: message }],
      lastStatus: null,
    };
  }
}
