import type postgres from "postgres";
import { rawSql } from "@/db/client";
import { QUEUE_CHANNEL } from "./queries";

// Sending finished notification_deliveries rows again (partner console). A row goes back to
// PENDING with a fresh queue entry (delivery_jobs: due now, no attempts, no failing_since, as
// the enqueue trigger gives a new row) and the workers are woken; the claim then sends it like a
// new row. Rows still PENDING are left alone: they are queued already. Rows of a deactivated
// delivery are not re-queued: the claim would only fail them again.
// Each call is one transaction: the rows change state and their entries exist, or neither.

/** The most rows one "resend all failed" re-queues; the partner clicks again for the rest. */
const RESEND_LIMIT = 1000;

export type Resent = { requeued: number; skippedInactive: number; more: boolean };

export async function resendNotificationDeliveries({ notificationId }: { notificationId: number }): Promise<Resent> {
  return rawSql().begin(async (sql) => {
    const rows = await sql<{ id: string; active: boolean }[]>`
      select nd.id, sd.active from notification_deliveries nd join subscription_deliveries sd on sd.id = nd.delivery_id
      where nd.notification_id = ${notificationId} and nd.status <> 'PENDING'
      order by nd.id for update of nd`;
    const ids = rows.filter((r) => r.active).map((r) => Number(r.id));
    await requeue(sql, ids);
    return { requeued: ids.length, skippedInactive: rows.length - ids.length, more: false };
  });
}

/** FAILED rows of the app's notifications made at or after `since`, oldest first, at most RESEND_LIMIT. */
export async function resendFailedSince({ appId, environment, since }: { appId: number; environment: string; since: Date }): Promise<Resent> {
  return rawSql().begin(async (sql) => {
    const rows = await sql<{ id: string }[]>`
      select nd.id from notification_deliveries nd
        join notifications n on n.id = nd.notification_id
        join subscription_deliveries sd on sd.id = nd.delivery_id
      where n.app_id = ${appId} and n.environment = ${environment} and n.created_at >= ${since.toISOString()}::timestamptz
        and nd.status = 'FAILED' and sd.active
      order by nd.id limit ${RESEND_LIMIT + 1} for update of nd skip locked`;
    const ids = rows.slice(0, RESEND_LIMIT).map((r) => Number(r.id));
    await requeue(sql, ids);
    const [inactive] = await sql<{ n: number }[]>`
      select count(*)::int as n from notification_deliveries nd
        join notifications n on n.id = nd.notification_id
        join subscription_deliveries sd on sd.id = nd.delivery_id
      where n.app_id = ${appId} and n.environment = ${environment} and n.created_at >= ${since.toISOString()}::timestamptz
        and nd.status = 'FAILED' and not sd.active`;
    return { requeued: ids.length, skippedInactive: inactive?.n ?? 0, more: rows.length > RESEND_LIMIT };
  });
}

async function requeue(sql: postgres.TransactionSql, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const array = `{${ids.join(",")}}`;
  await sql`update notification_deliveries set status = 'PENDING' where id = any(${array}::bigint[])`;
  await sql`delete from delivery_jobs where notification_delivery_id = any(${array}::bigint[])`;
  await sql`insert into delivery_jobs (notification_delivery_id) select unnest(${array}::bigint[])`;
  await sql`select pg_notify(${QUEUE_CHANNEL}, '')`;
}
