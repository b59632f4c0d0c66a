import { databaseConfig } from "@/db/config";
import { connect, rawSql, type Connection } from "@/db/client";
import { env } from "@/server/platform/env";
import { grantAllows } from "./grant-check";

// The delivery queue's claim and leases (delivery_jobs): the worker's hot path, so postgres.js
// tagged templates (docs/architecture.md#reaching-the-database). What sending a claimed row needs
// is read in queries.ts; a batch's outcome is recorded by attempts.ts.

/** The channel on which the enqueue trigger, a resend and a drain NOTIFY that entries are due. */
export const QUEUE_CHANNEL = "wayline_deliveries";

const bigintArray = (ids: number[]) => `{${ids.map((id) => Math.trunc(id)).join(",")}}`;

export type Claimed = {
  id: number;
  notificationId: number;
  deliveryId: number;
  attempts: number;
  failingSince: Date | null;
};

/**
 * Takes a lease on up to `limit` due entries of the queue (delivery_jobs): never leased or
 * leased by a worker that vanished (lease_until past), next_attempt_at reached, earliest first.
 * The row locks (SKIP LOCKED) make two workers claiming at once take different rows. Rows of a
 * delivery deactivated meanwhile, and rows whose app lost the account's grant (grant-check.ts: a
 * notification written by a transaction that committed after the revocation), become FAILED
 * instead, and leave the queue.
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
  // Two index ranges (delivery_jobs_next_idx, delivery_jobs_lease_idx), each ordered and limited.
  const rows = await sql<
    {
      id: string;
      notification_id: string;
      delivery_id: number;
      active: boolean;
      attempts: number;
      failing_since: Date | null;
    }[]
  >`
    with due as (
      select j.notification_delivery_id as id from delivery_jobs j
      where j.lease_until is null and j.next_attempt_at <= now()
      order by j.next_attempt_at limit ${limit}
      for update skip locked
    ), expired as (
      select j.notification_delivery_id as id from delivery_jobs j
      where j.lease_until < now() and j.next_attempt_at <= now()
      order by j.lease_until limit ${limit}
      for update skip locked
    ), taken as (
      select id from due union select id from expired limit ${limit}
    ), picked as (
      select nd.id, nd.notification_id, nd.delivery_id, sd.active and ${grantAllows(sql)} as active
      from taken join notification_deliveries nd on nd.id = taken.id
      join subscription_deliveries sd on sd.id = nd.delivery_id
      left join notifications n on n.id = nd.notification_id
      where nd.status = 'PENDING'
    ), settled as (
      -- An entry outliving its row's PENDING state would block nothing but would be read forever.
      delete from delivery_jobs where notification_delivery_id in (select id from taken except select id from picked)
    ), dropped as (
      update notification_deliveries set status = 'FAILED' where id in (select id from picked where not active) returning id
    ), dropped_jobs as (
      delete from delivery_jobs where notification_delivery_id in (select id from dropped)
    ), claimed as (
      update delivery_jobs j set lease_owner = ${owner}, lease_until = now() + make_interval(secs => ${leaseSeconds})
      from picked where j.notification_delivery_id = picked.id and picked.active
      returning j.notification_delivery_id, j.attempts, j.failing_since
    )
    select p.id, p.notification_id, p.delivery_id, claimed.attempts, claimed.failing_since
    from claimed join picked p on p.id = claimed.notification_delivery_id
    order by p.id`;
  return rows.map((r) => ({
    id: Number(r.id),
    notificationId: Number(r.notification_id),
    deliveryId: r.delivery_id,
    attempts: r.attempts,
    failingSince: r.failing_since ? new Date(r.failing_since) : null,
  }));
}

/**
 * The send gate (docs/delivery.md#revocation): just before a claimed batch is sent, the entries this
 * worker still holds whose notification may still be sent (grant-check.ts) are read, and `send`
 * gets their ids. On PostgreSQL the read takes FOR KEY SHARE on those entries and the transaction
 * stays open until `send` has finished: a revocation deletes the entries of its account
 * (cancel.ts), which waits for that lock, so every send that passed the gate is over before the
 * revocation commits, and a gate that comes after it finds the entries gone. The lock does not
 * stop the heartbeat (an update of the lease, FOR NO KEY UPDATE), and it is released before the
 * batch is recorded (attempts.ts deletes entries). On the embedded database a transaction holds
 * the one session every connection shares (the sends' own queries, the sandbox inbox's, would
 * wait for it), so there the gate is the read alone.
 */
export async function withSendGate<T>(
  { ids, owner }: { ids: number[]; owner: string },
  send: (allowed: Set<number>) => Promise<T>,
): Promise<T> {
  const gate = async (sql: ReturnType<typeof rawSql>) => {
    const rows = await sql<{ id: string }[]>`
      select j.notification_delivery_id as id from delivery_jobs j
        join notification_deliveries nd on nd.id = j.notification_delivery_id
        left join notifications n on n.id = nd.notification_id
       where j.notification_delivery_id = any(${bigintArray(ids)}::bigint[]) and j.lease_owner = ${owner}
         and ${grantAllows(sql)}
       order by j.notification_delivery_id
         for key share of j`;
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

export async function releaseLeases({ ids, owner }: { ids: number[]; owner: string }): Promise<void> {
  await rawSql()`update delivery_jobs set lease_owner = null, lease_until = null where notification_delivery_id = any(${bigintArray(ids)}::bigint[]) and lease_owner = ${owner}`;
}

/** Heartbeat: a live worker keeps its leases; only a dead or stalled one loses them. */
export async function extendLeases({
  ids,
  owner,
  leaseSeconds,
}: {
  ids: number[];
  owner: string;
  leaseSeconds: number;
}): Promise<void> {
  await rawSql()`update delivery_jobs set lease_until = now() + make_interval(secs => ${leaseSeconds}) where notification_delivery_id = any(${bigintArray(ids)}::bigint[]) and lease_owner = ${owner}`;
}

/** A stopping worker's leases, given back at once (a drain), and the other workers woken to take them. */
export async function releaseOwnLeases(owner: string): Promise<number> {
  return rawSql().begin(async (sql) => {
    const rows =
      await sql`update delivery_jobs set lease_owner = null, lease_until = null where lease_owner = ${owner} and lease_until is not null returning 1`;
    if (rows.length > 0) await sql`select pg_notify(${QUEUE_CHANNEL}, '')`;
    return rows.length;
  });
}
