import { and, desc, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import { db, type Executor } from "@/db/client";
import { accounts, alertDeliveries, alertPreferences, alertSettings, alerts, vehicles } from "@/db/schema";
import type { AlertChannel } from "@/common/alerts/kinds";

// The alerts' reads and writes outside ingest (which has its own: ingest-queries.ts): the driver's
// preferences and quiet hours, the list, and the test alerts.

export async function readPreferences({ accountId }: { accountId: number }) {
  return db().select().from(alertPreferences).where(eq(alertPreferences.accountId, accountId));
}

export async function readQuietHours({ accountId }: { accountId: number }) {
  const [row] = await db().select().from(alertSettings).where(eq(alertSettings.accountId, accountId));
  return row?.quietFrom && row.quietTo ? { from: row.quietFrom, to: row.quietTo } : null;
}

type PreferenceRow = {
  kind: string;
  email: boolean;
  browser: boolean;
  threshold: number | null;
  unit: string | null;
};

/** Every kind's preference and the quiet hours, replaced at once; the zone set only where the account has none. */
export async function writeSettings(
  tx: Executor,
  {
    accountId,
    preferences,
    quietHours,
    timeZone,
  }: {
    accountId: number;
    preferences: PreferenceRow[];
    quietHours: { from: string; to: string } | null;
    timeZone: string | null;
  },
): Promise<void> {
  if (preferences.length > 0)
    await tx
      .insert(alertPreferences)
      .values(preferences.map((p) => ({ accountId, ...p })))
      .onConflictDoUpdate({
        target: [alertPreferences.accountId, alertPreferences.kind],
        set: {
          email: sql`excluded.email`,
          browser: sql`excluded.browser`,
          threshold: sql`excluded.threshold`,
          unit: sql`excluded.unit`,
          updatedAt: sql`now()`,
        },
      });
  await tx
    .insert(alertSettings)
    .values({ accountId, quietFrom: quietHours?.from ?? null, quietTo: quietHours?.to ?? null })
    .onConflictDoUpdate({
      target: alertSettings.accountId,
      set: { quietFrom: quietHours?.from ?? null, quietTo: quietHours?.to ?? null, updatedAt: sql`now()` },
    });
  if (timeZone)
    await tx
      .update(accounts)
      .set({ timeZone })
      .where(and(eq(accounts.id, accountId), isNull(accounts.timeZone)));
}

/** A test alert and its one delivery, queued like a real alert's (the enqueue trigger wakes the worker). */
export async function insertTestAlert(
  tx: Executor,
  { accountId, channel, summary }: { accountId: number; channel: AlertChannel; summary: string },
): Promise<number> {
  const [alert] = await tx
    .insert(alerts)
    .values({ accountId, kind: "TEST", at: new Date(), summary, test: true })
    .returning({ id: alerts.id });
  await tx.insert(alertDeliveries).values({ alertId: alert!.id, channel });
  return alert!.id;
}

/** The account's alerts, newest first, `limit` of them before the id `before` (a page). */
export async function listAlerts({ accountId, limit, before }: { accountId: number; limit: number; before?: number }) {
  const rows = await db()
    .select({
      id: alerts.id,
      kind: alerts.kind,
      at: alerts.at,
      summary: alerts.summary,
      test: alerts.test,
      quiet: alerts.quiet,
      vehicleId: alerts.vehicleId,
      vehicleLabel: vehicles.label,
      vehicleYear: vehicles.year,
      vehicleMake: vehicles.make,
      vehicleModel: vehicles.model,
    })
    .from(alerts)
    .leftJoin(vehicles, eq(vehicles.id, alerts.vehicleId))
    .where(and(eq(alerts.accountId, accountId), before === undefined ? undefined : lt(alerts.id, before)))
    .orderBy(desc(alerts.id))
    .limit(limit);
  const deliveries =
    rows.length === 0
      ? []
      : await db()
          .select({
            alertId: alertDeliveries.alertId,
            channel: alertDeliveries.channel,
            status: alertDeliveries.status,
            reason: alertDeliveries.reason,
            attempts: alertDeliveries.attempts,
            decidedAt: alertDeliveries.decidedAt,
          })
          .from(alertDeliveries)
          .where(
            inArray(
              alertDeliveries.alertId,
              rows.map((r) => r.id),
            ),
          )
          .orderBy(alertDeliveries.id);
  return { rows, deliveries };
}

/** Everything of the account's alerts, for the data export. */
export async function exportAlerts({ accountId }: { accountId: number }) {
  const { rows, deliveries } = await listAlerts({ accountId, limit: 100_000 });
  const [settings] = await db().select().from(alertSettings).where(eq(alertSettings.accountId, accountId));
  return { preferences: await readPreferences({ accountId }), settings: settings ?? null, rows, deliveries };
}
