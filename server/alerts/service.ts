import { eq } from "drizzle-orm";
import { db } from "@/db/client";
import { accounts } from "@/db/schema";
import {
  ALERT_KINDS,
  KIND_INFO,
  alertSettingsInput,
  testAlertInput,
  type AlertChannel,
  type AlertKind,
  type SpeedUnit,
} from "@/common/alerts/kinds";
import { ApiError, notFound, validationError, type FieldError } from "@/common/http/errors";
import { parseOrThrow } from "@/common/http/zod-errors";
import { evaluatedAtIngest } from "./kinds";
import { exportAlerts, insertTestAlert, listAlerts, readPreferences, readQuietHours, writeSettings } from "./queries";

// The driver's alert settings and list, for one account (the caller has decided whose: the
// driver site passes the signed-in driver's own). docs/alerts.md.

export type KindSetting = {
  kind: AlertKind;
  label: string;
  hint: string;
  email: boolean;
  browser: boolean;
  threshold: number | null;
  unit: SpeedUnit | null;
  /** False for a kind this server cannot yet tell from data sets (places, a device offline). */
  evaluated: boolean;
};

export type AlertSettingsView = {
  kinds: KindSetting[];
  quietHours: { from: string; to: string } | null;
  /** The account's zone, in which quiet hours are read; null: none set (UTC until one is). */
  timeZone: string | null;
  email: string | null;
};

async function accountOf(accountId: number) {
  const [row] = await db()
    .select({ timeZone: accounts.timeZone, email: accounts.email })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  if (!row) throw notFound("account");
  return row;
}

export async function alertSettingsOf(accountId: number): Promise<AlertSettingsView> {
  const [account, preferences, quietHours] = await Promise.all([
    accountOf(accountId),
    readPreferences({ accountId }),
    readQuietHours({ accountId }),
  ]);
  const byKind = new Map(preferences.map((p) => [p.kind, p]));
  return {
    kinds: ALERT_KINDS.map((kind) => {
      const info = KIND_INFO[kind];
      const saved = byKind.get(kind);
      return {
        kind,
        label: info.label,
        hint: info.hint,
        email: saved?.email ?? false,
        browser: saved?.browser ?? false,
        threshold: info.threshold ? (saved?.threshold ?? info.threshold.default) : null,
        unit: info.threshold?.unit === "speed" ? ((saved?.unit as SpeedUnit | null) ?? "mph") : null,
        evaluated: evaluatedAtIngest(kind),
      };
    }),
    quietHours,
    timeZone: account.timeZone,
    email: account.email,
  };
}

/** Saves every kind sent and the quiet hours; a threshold outside its kind's range is a field error. */
export async function saveAlertSettings(accountId: number, body: unknown): Promise<AlertSettingsView> {
  const input = parseOrThrow(alertSettingsInput, body, "alert settings");
  const errors: FieldError[] = [];
  const kinds = new Set<string>();
  const preferences = input.preferences.map((p) => {
    if (kinds.has(p.kind))
      errors.push({
        fieldName: `preferences.${p.kind}`,
        errorCode: "INVALID",
        errorDisplay: "Each kind may be sent once.",
      });
    kinds.add(p.kind);
    const range = KIND_INFO[p.kind].threshold;
    if (!range) return { kind: p.kind, email: p.email, browser: p.browser, threshold: null, unit: null };
    const threshold = p.threshold ?? range.default;
    if (threshold < range.min || threshold > range.max)
      errors.push({
        fieldName: `preferences.${p.kind}.threshold`,
        errorCode: "INVALID",
        errorDisplay: `Must be between ${range.min} and ${range.max}.`,
      });
    return {
      kind: p.kind,
      email: p.email,
      browser: p.browser,
      threshold,
      unit: range.unit === "speed" ? (p.unit ?? "mph") : null,
    };
  });
  if (errors.length > 0) throw validationError(errors, "The alert settings have invalid fields.");
  await db().transaction((tx) =>
    writeSettings(tx, {
      accountId,
      preferences,
      quietHours: input.quietHours,
      timeZone: input.browserTimeZone ?? null,
    }),
  );
  return alertSettingsOf(accountId);
}

/**
 * A test alert on one channel, queued and sent by the delivery worker as a real one is, and listed
 * marked test. The e-mail channel needs the account's address.
 */
export async function sendTestAlert(accountId: number, body: unknown): Promise<{ alertId: number }> {
  const { channel } = parseOrThrow(testAlertInput, body, "test alert");
  if (channel === "email" && !(await accountOf(accountId)).email)
    throw new ApiError("VALIDATION", "Your account has no e-mail address: add one on the account page first.");
  const alertId = await db().transaction((tx) =>
    insertTestAlert(tx, { accountId, channel, summary: `Test alert (${channelName(channel)})` }),
  );
  return { alertId };
}

const channelName = (channel: AlertChannel) => (channel === "email" ? "e-mail" : "browser notification");

export type ChannelOutcome = {
  channel: AlertChannel;
  /** delivered; sending (queued, or retrying after a failure: reason says why); not sent (reason). */
  outcome: "delivered" | "sending" | "not sent";
  reason: string | null;
};

export type AlertListEntry = {
  id: number;
  at: Date;
  kind: string;
  what: string;
  vehicle: { id: number; name: string } | null;
  test: boolean;
  channels: ChannelOutcome[];
};

export async function listAlertsOf(
  accountId: number,
  { limit = 50, before }: { limit?: number; before?: number } = {},
): Promise<AlertListEntry[]> {
  const { rows, deliveries } = await listAlerts({ accountId, limit, before });
  return rows.map((r) => ({
    id: r.id,
    at: r.at,
    kind: r.kind,
    what: r.summary,
    vehicle:
      r.vehicleId === null
        ? null
        : {
            id: r.vehicleId,
            name:
              r.vehicleLabel ||
              [r.vehicleYear, r.vehicleMake, r.vehicleModel].filter(Boolean).join(" ") ||
              `Vehicle ${r.vehicleId}`,
          },
    test: r.test,
    channels: deliveries
      .filter((d) => d.alertId === r.id)
      .map((d) => ({
        channel: d.channel,
        outcome: d.status === "DELIVERED" ? "delivered" : d.status === "PENDING" ? "sending" : "not sent",
        reason: d.status === "PENDING" && d.attempts === 0 ? null : d.reason,
      })),
  }));
}

/** The account's alert settings and every alert with its channels' outcomes, for "Download my data". */
export async function exportAlertsOf(accountId: number) {
  const { preferences, settings, rows, deliveries } = await exportAlerts({ accountId });
  return {
    preferences: preferences.map((p) => ({
      kind: p.kind,
      email: p.email,
      browser: p.browser,
      threshold: p.threshold,
      unit: p.unit,
    })),
    quietHours: settings?.quietFrom ? { from: settings.quietFrom, to: settings.quietTo } : null,
    alerts: rows.map((r) => ({
      id: r.id,
      at: r.at.toISOString(),
      kind: r.kind,
      what: r.summary,
      vehicleId: r.vehicleId,
      test: r.test,
      quietHours: r.quiet,
      channels: deliveries
        .filter((d) => d.alertId === r.id)
        .map((d) => ({
          channel: d.channel,
          status: d.status,
          reason: d.reason,
          decidedAt: d.decidedAt?.toISOString() ?? null,
        })),
    })),
  };
}
