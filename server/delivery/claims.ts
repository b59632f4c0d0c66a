import { databaseConfig } from "@/db/config";
import { connect, rawSql, type Connection } from "@/db/client";
import { env } from "@/server/platform/env";
import { grantAllows } from "./grant-check";

// The delivery queue's claim and leases, kept on the PENDING rows of notification_deliveries
// themselves (queue.ts): the worker's hot path, so postgres.js tagged templates
// (docs/architecture.md#reaching-the-database). What sending a claimed row needs is read in
// queries.ts; a batch's outcome is recorded by attempts.ts.

/** The channel on which the enqueue trigger, a resend and a drain NOTIFY that rows are due. */
export const QUEUE_CHANNEL = "wayline_deliveries";

/** Ids as one array parameter (`…::bigint[]`). */
export const bigintArray = (ids: number[]) => `{${ids.map((id) => Math.trunc(id)).join(",")}}`;

export type Claimed = {
  id: number;
  notificationId: number;
  deliveryId: number;
  attempts: number;
  failingSince: Date | null;
};

/**
 * Takes a lease on up to `limit` due rows of the queue: PENDING, next_attempt_at reached, never
 * leased or leased by a worker that vanished (lease_until past), earliest first. The row locks
 * (SKIP LOCKED) make two workers claiming at once take different rows. Rows of a delivery
 * deactivated meanwhile, and rows whose app lost the account's grant (grant-check.ts: a
 * notification written by a transaction that committed after the revocation), become FAILED
 * instead.
 */
export async function claimDue({
  owner,
  leaseSeconds,
  limit,
}: {
  owner: string;
  leaseSeconds: number;
  limit: number;
}): Promise<Claimed[]> {
  const sql = rawSql();
  // One ordered range of notification_deliveries_due_idx. Rows other workers hold are due too
  // (their time has come) and are stepped over: at most DELIVERY_CONCURRENCY batches of BATCH
  // rows a worker (docs/delivery.md#queue).
  const rows = await sql<
    {
      id: string;
      notification_id: string;
      delivery_id: number;
      attempts: number;
      failing_since: Date | null;
    }[]
  >`
    with due as (
      select nd.id, nd.notification_id, nd.delivery_id from notification_deliveries nd
      where nd.status = 'PENDING' and nd.next_attempt_at <= now() and (nd.lease_until is null or nd.lease_until < now())
      order by nd.next_attempt_at limit ${limit}
      for update skip locked
    ), picked as (
      select due.id, sd.active and ${grantAllows(sql)} as active
      from due join subscription_deliveries sd on sd.id = due.delivery_id
      left join notifications n on n.id = due.notification_id
    ), dropped as (
      update notification_deliveries set status = 'FAILED', lease_owner = null, lease_until = null
      where id in (select id from picked where not active)
    ), claimed as (
      update notification_deliveries nd set lease_owner = ${owner}, lease_until = now() + make_interval(secs => ${leaseSeconds})
      from picked where nd.id = picked.id and picked.active
      returning nd.id, nd.notification_id, nd.delivery_id, nd.attempts, nd.failing_since
    )
    select id, notification_id, delivery_id, attempts, failing_since from claimed order by id`;
  return rows.map((r) => ({
    id: Number(r.id),
    notificationId: Number(r.notification_id),
    deliveryId: r.delivery_id,
    attempts: r.attempts,
    failingSince: r.failing_since ? new Date(r.failing_since) : null,
  }));
}

/**
 * The send gate (docs/delivery.md#revocation): just before a claimed batch is sent, the rows this
 * worker still holds whose notification may still be sent (grant-check.ts) are read, and `send`
 * gets their ids. On PostgreSQL the read takes FOR KEY SHARE on those rows and the transaction
 * stays open until `send` has finished: a revocation locks the pending rows of its account FOR
 * UPDATE before it fails them (cancel.ts), which waits for that lock, so every send that passed
 * the gate is over before the revocation commits, and a gate that comes after it finds them
 * FAILED. The lock does not stop the heartbeat (an update of the lease, which takes FOR NO KEY
 * UPDATE: no key column changes), and it is released before the batch is recorded
 * (attempts.ts). On the embedded database a transaction holds
 * the one session every connection shares (the sends' own queries, the sandbox inbox's, would
 * wait for it), so there the gate is the read alone.
 */
export async function withSendGate<T>(
  { ids, owner }: { ids: number[]; owner: string },
  send: (allowed: Set<number>) => Promise<T>,
): Promise<T> {
  const gate = async (sql: ReturnType<typeof rawSql>) => {
    const rows = await sql<{ id: string }[]>`
      select nd.id from notification_deliveries nd
        left join notifications n on n.id = nd.notification_id
       where nd.id = any(${bigintArray(ids)}::bigint[]) and nd.status = 'PENDING' and nd.lease_owner = ${owner}
         and ${grantAllows(sql)}
       order by nd.id
         for key share of nd`;
    return new Set(rows.map((r) => Number(r.id)));
  };
  const url = databaseConfig().url;
  if (url === undefined) return send(await gate(rawSql()));
  return (await gatePool(url).sql.begin(async (sql) =>
    send(await gate(sql as unknown as ReturnType<typeof rawSql>)),
  )) as T;
}

// The gates' own connections, one per batch a worker may have in hand (DELIVERY_CONCURRENCY): a
// gate holds its transaction while its batch is sent, and on the process's shared pool (10) the
// open gates could take every connection the sends themselves need (the sandbox inbox's writes,
// an oauth2 token refresh, the lease heartbeat), which would then wait for them for ever.
let gates: Connection | null = null;
function gatePool(url: string): Connection {
  gates ??= connect(url, false, env().DELIVERY_CONCURRENCY);
  return gates;
}

// The two lease updates below lock their rows in id order, as every other writer of the queue does
// (docs/delivery.md#lock-order).
export async function releaseLeases({ ids, owner }: { ids: number[]; owner: string }): Promise<void> {
  await rawSql()`update notification_deliveries nd set lease_owner = null, lease_until = null
    from (select id from notification_deliveries where id = any(${bigintArray(ids)}::bigint[]) and lease_owner = ${owner}
           order by id for no key update) mine
   where nd.id = mine.id`;
}

/**
 * Heartbeat: a live worker keeps its leases; only a dead or stalled one loses them. A row locked by
 * another transaction is stepped over rather than waited for: that is a revocation, an account's
 * deletion or a replaced delivery ending it, or this worker recording it.
 */
export async function extendLeases({
  ids,
  owner,
  leaseSeconds,
}: {
  ids: number[];
  owner: string;
  leaseSeconds: number;
}): Promise<void> {
  await rawSql()`update notification_deliveries nd set lease_until = now() + make_interval(secs => ${leaseSeconds})
    from (select id from notification_deliveries where id = any(${bigintArray(ids)}::bigint[]) and lease_owner = ${owner}
           order by id for no key update skip locked) mine
   where nd.id = mine.id`;
}

/**
 * A stopping worker's leases, given back at once (a drain), and the other workers woken to take
 * them. A leased row was due when it was claimed, so they are found in the due index's range
 * that the claim reads (lease_owner has no index of its own).
 */
export async function releaseOwnLeases(owner: string): Promise<number> {
  return rawSql().begin(async (sql) => {
    const rows = await sql`update notification_deliveries set lease_owner = null, lease_until = null
        where status = 'PENDING' and next_attempt_at <= now() and lease_owner = ${owner} returning 1`;
    if (rows.length > 0) await sql`select pg_notify(${QUEUE_CHANNEL}, '')`;
    return rows.length;
  });
}
