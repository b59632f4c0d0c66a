import type postgres from "postgres";
import { rawSql } from "@/db/client";
import { retryingDeadlocks } from "@/db/errors";
import { childLogger } from "@/server/platform/log";
import { recordAttemptRollups } from "./attempt-rollups";
import { bigintArray } from "./claims";
import type { OutboxEntry } from "./email";

const log = childLogger({ component: "delivery" });

// Dates travel as ISO strings: postgres.js won't serialise a Date for a parameter whose type the
// server (not the client) inferred.
//
// Writes a batch's results in one transaction: its attempts (and their delivery health rollup), the
// rows' new states, deactivated deliveries, the notifications' last HTTP status, and the retries'
// schedule (their next_attempt_at). A settled row and a retry both leave the worker's hands (their
// lease is cleared). Either all of a batch is recorded or none is (then the lease runs out and the
// batch is sent again: at-least-once).
//
// Lock order (docs/delivery.md#lock-order): first the deliveries the batch deactivates, then the
// batch's rows, each in id order, as a replacement of deliveries (server/subscriptions/queries.ts)
// locks the deliveries it removes and then their pending rows, and a revocation's or an account
// deletion's cancel (cancel.ts) the rows it fails; then the rest (the notifications, the rollups).
// Without it the attempts' foreign-key checks locked the rows in the order the sends ended, and a
// revocation locking them in id order met the batch halfway: a deadlock. A row that is gone by then
// (its delivery was replaced while it was sent) has nothing left to record: its results are
// dropped, with a debug line.

export type AttemptRecord = {
  notificationDeliveryId: number;
  notificationId: number;
  deliveryId: number;
  attemptedAt: Date;
  target: string;
  outcome: "DELIVERED" | "RETRY" | "DEACTIVATED" | "REDIRECTED" | "REFRESHED" | "REFRESH_FAILED";
  httpStatus: number | null;
  latencyMs: number;
  error: string | null;
  responseExcerpt: string | null;
  signedContent: string | null;
  signature: string | null;
  /** HTTP_POST: the headers sent (docs/delivery.md#attempts). */
  requestHeaders?: Record<string, string> | null;
};

export type RowResult =
  | { id: number; kind: "delivered" }
  | { id: number; kind: "retry"; at: Date; attempts: number; failingSince: Date }
  | { id: number; kind: "deactivated"; deliveryId: number; reason: string; at: Date }
  /** Not sent: the send gate found the row no longer pending in its hands, or its app without the account's grant (claims.ts). */
  | { id: number; kind: "cancelled" };

export async function recordBatch({
  attempts,
  results,
  httpStatuses,
  outbox,
  workerId,
}: {
  attempts: AttemptRecord[];
  results: RowResult[];
  httpStatuses: Map<number, number>;
  outbox: OutboxEntry[];
  workerId: string;
}): Promise<void> {
  const ids = [...new Set(results.map((r) => r.id))].sort((a, b) => a - b);
  // A deadlock can still end this transaction (a row inserted for a removed delivery after its
  // replacement locked the others): it is run again, rather than the batch sent twice.
  await retryingDeadlocks(() =>
    rawSql().begin(async (sql) => {
      const deactivating = [...new Set(results.flatMap((r) => (r.kind === "deactivated" ? [r.deliveryId] : [])))].sort(
        (a, b) => a - b,
      );
      if (deactivating.length > 0)
        await sql`select id from subscription_deliveries where id = any(${`{${deactivating.join(",")}}`}::int[]) order by id for no key update`;
      const locked = await sql<{ id: string }[]>`
        select id from notification_deliveries where id = any(${bigintArray(ids)}::bigint[]) order by id for no key update`;
      const present = new Set(locked.map((r) => Number(r.id)));
      if (present.size < ids.length)
        log.debug({ gone: ids.filter((id) => !present.has(id)) }, "attempts of removed deliveries dropped");
      await recordRows(sql, {
        attempts: attempts.filter((a) => present.has(a.notificationDeliveryId)),
        results: results.filter((r) => present.has(r.id)),
        httpStatuses,
        outbox: outbox.filter((o) => present.has(o.notificationDeliveryId)),
        workerId,
      });
    }),
  );
}

async function recordRows(
  sql: postgres.TransactionSql,
  { attempts, results, httpStatuses, outbox, workerId }: Parameters<typeof recordBatch>[0],
): Promise<void> {
  const delivered = results.filter((r) => r.kind === "delivered").map((r) => r.id);
  const retries = results
    .filter((r): r is Extract<RowResult, { kind: "retry" }> => r.kind === "retry")
    .sort((a, b) => a.id - b.id);
  const deactivated = results.filter((r): r is Extract<RowResult, { kind: "deactivated" }> => r.kind === "deactivated");
  const cancelled = results.filter((r) => r.kind === "cancelled").map((r) => r.id);
  if (attempts.length > 0) {
    await sql`insert into delivery_attempts ${sql(
      attempts.map((a) => ({
        notification_delivery_id: a.notificationDeliveryId,
        notification_id: a.notificationId,
        delivery_id: a.deliveryId,
        attempted_at: a.attemptedAt.toISOString(),
        target: a.target,
        outcome: a.outcome,
        http_status: a.httpStatus,
        latency_ms: a.latencyMs,
        error: a.error,
        response_excerpt: a.responseExcerpt,
        signed_content: a.signedContent,
        signature: a.signature,
        // As text: the column's type (jsonb) is inferred by the server, which parses it.
        request_headers: a.requestHeaders ? JSON.stringify(a.requestHeaders) : null,
        worker_id: workerId,
      })),
    )}`;
  }
  if (outbox.length > 0) {
    await sql`insert into email_outbox ${sql(
      outbox.map((o) => ({
        notification_delivery_id: o.notificationDeliveryId,
        app_id: o.appId,
        recipient: o.recipient,
        subject: o.subject,
        text: o.text,
      })),
    )}`;
  }
  if (delivered.length > 0)
    await sql`update notification_deliveries set status = 'DELIVERED', lease_owner = null, lease_until = null
      where id = any(${`{${delivered.join(",")}}`}::bigint[])`;
  for (const d of deactivated) {
    await sql`update subscription_deliveries
      set active = false, deactivation_reason = ${d.reason}, deactivated_at = ${d.at.toISOString()}::timestamptz
      where id = ${d.deliveryId} and active`;
  }
  if (deactivated.length > 0)
    await sql`update notification_deliveries set status = 'FAILED', lease_owner = null, lease_until = null
      where id = any(${`{${deactivated.map((d) => d.id).join(",")}}`}::bigint[])`;
  if (cancelled.length > 0)
    await sql`update notification_deliveries set status = 'FAILED', lease_owner = null, lease_until = null
      where id = any(${`{${cancelled.join(",")}}`}::bigint[]) and status = 'PENDING'`;
  for (const r of retries) {
    await sql`update notification_deliveries
      set attempts = ${r.attempts}, next_attempt_at = ${r.at.toISOString()}::timestamptz,
          failing_since = ${r.failingSince.toISOString()}::timestamptz, lease_owner = null, lease_until = null
      where id = ${r.id} and status = 'PENDING'`;
  }
  for (const [notificationId, status] of httpStatuses) {
    await sql`update notifications set http_status_code = ${status} where id = ${notificationId}`;
  }
  // Last: the rollup's rows are shared by every worker delivering to the same receiver, so their
  // lock is held only from here to the commit (server/delivery/attempt-rollups.ts).
  await recordAttemptRollups(sql, attempts);
}
