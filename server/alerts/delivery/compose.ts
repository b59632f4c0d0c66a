import { KIND_INFO, type AlertKind } from "@/common/alerts/kinds";
import { env } from "@/server/platform/env";
import type { ClaimedAlert } from "./queries";

// What an alert says on each channel: an e-mail to the account's address, and the browser
// notification's title, body and the page it opens (the driver's alerts list).

export const ALERT_FROM = "Wayline alerts <alerts@wayline.invalid>";

const kindLabel = (kind: string) => KIND_INFO[kind as AlertKind]?.label ?? kind;

function alertTitle(alert: Pick<ClaimedAlert, "test" | "kind" | "vehicleName">): string {
  if (alert.test) return "Wayline: test alert";
  return `Wayline: ${kindLabel(alert.kind)}${alert.vehicleName ? ` (${alert.vehicleName})` : ""}`;
}

/** The alerts page, absolute when the public origin is known. */
function alertsUrl(): string {
  const origin = env().PUBLIC_URL;
  return origin ? new URL("/alerts", origin).toString() : "/alerts";
}

export function alertEmail(alert: ClaimedAlert): { subject: string; text: string } {
  const lines = alert.test
    ? ["This is a test alert: your alert e-mails reach this address."]
    : [
        alert.summary,
        "",
        `Vehicle: ${alert.vehicleName ?? "—"}`,
        `When: ${alert.at.toISOString().replace(/\.\d{3}Z$/, "Z")}`,
      ];
  return {
    subject: alertTitle(alert),
    text: `${lines.join("\n")}\n\nAll your alerts, and the settings that choose them: ${alertsUrl()}\n`,
  };
}

export function alertPush(alert: ClaimedAlert): { title: string; body: string; url: string } {
  return {
    title: alertTitle(alert),
    body: alert.test ? "Browser notifications of your alerts reach this browser." : alert.summary,
    url: "/alerts",
  };
}
