import type { DriverSession } from "@/server/surfaces/driver/session";
import {
  alertSettingsOf,
  listAlertsOf,
  saveAlertSettings,
  sendTestAlert,
  type AlertListEntry,
  type AlertSettingsView,
} from "@/server/alerts/service";

// The signed-in driver's own alerts (docs/alerts.md): always the session's account, never one named
// by the request.

export const getDriverAlertSettings = (session: DriverSession): Promise<AlertSettingsView> =>
  alertSettingsOf(session.accountId);

export const saveDriverAlertSettings = (session: DriverSession, body: unknown): Promise<AlertSettingsView> =>
  saveAlertSettings(session.accountId, body);

export const sendDriverTestAlert = (session: DriverSession, body: unknown): Promise<{ alertId: number }> =>
  sendTestAlert(session.accountId, body);

export const listDriverAlerts = (session: DriverSession): Promise<AlertListEntry[]> => listAlertsOf(session.accountId);
