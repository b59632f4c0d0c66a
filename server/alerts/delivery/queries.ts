import { sql } from "drizzle-orm";
import { db } from "@/db/client";

// The alert deliveries' queue (db/schema/alerts.ts): claim, leases and outcomes, on the PENDING rows
// themselves as the notifications' queue does (server/delivery/claims.ts), with the same lock order
// (rows taken in id order). A driver's alerts are few: drizzle's sql run by execute() is enough.

const ids = (list: number[]) => `{${list.map((id) => Math.trunc(id)).join(",")}}`;

export type ClaimedAlert = {
  id: number;
  channel: "email" | "browser";
  attempts: number;
  failingSince: Date | null;
  test: boolean;
  alertId: number;
  accountId: number;
  kind: string;
  at: Date;
  summary: string;
  vehicleName: string | null;
  email: string | null;
};

type ClaimRow = {
  id: string;
  channel: "email" | "browser";
  attempts: number;
  failing_since: string | null;
  test: boolean;
  alert_id: string;
  account_id: number;
  kind: string;
  at: string;
  summary: string;
  vehicle_name: string | null;
  email: string | null;
};

/** Leases up to `limit` due rows (PENDING, due, not leased by a live worker), with what sending them needs. */
export async function claimDueAlerts({
  owner,
  leaseSeconds,
  limit,
}: {
  owner: string;
  leaseSeconds: number;
  limit: number;
}): Promise<ClaimedAlert[]> {
  const rows = await db().execute<ClaimRow>(sql`
    with due as (
      select id from alert_deliveries
       where status = 'PENDING' and next_attempt_at <= now() and (lease_until is null or lease_until < now())
       order by next_attempt_at, id limit ${limit}
         for update skip locked
    ), claimed as (
      update alert_deliveries d set lease_owner = ${owner}, lease_until = now() + make_interval(secs => ${leaseSeconds})
        from due where d.id = due.id
      returning d.id, d.alert_id, d.channel, d.attempts, d.failing_since
    )
    select c.id, c.channel, c.attempts, c.failing_since, a.test, a.id as alert_id, a.account_id, a.kind, a.at, a.summary,
           case when v.id is null then null
                else coalesce(nullif(v.label, ''), nullif(concat_ws(' ', v.year, v.make, v.model), ''), 'Vehicle ' || v.id) end as vehicle_name,
           acc.email
      from claimed c join alerts a on a.id = c.alert_id join accounts acc on acc.id = a.account_id
      left join vehicles v on v.id = a.vehicle_id
     order by c.id`);
  return [...rows].map((r) => ({
    id: Number(r.id),
    channel: r.channel,
    attempts: r.attempts,
    failingSince: r.failing_since ? new Date(r.failing_since) : null,
    test: r.test,
    alertId: Number(r.alert_id),
    accountId: r.account_id,
    kind: r.kind,
    at: new Date(r.at),
    summary: r.summary,
    vehicleName: r.vehicle_name,
    email: r.email,
  }));
}

/** Heartbeat: a live worker keeps its leases (rows another transaction holds are stepped over). */
export async function extendAlertLeases({
  ids: list,
  owner,
  leaseSeconds,
}: {
  ids: number[];
  owner: string;
  leaseSeconds: number;
}): Promise<void> {
  await db().execute(sql`
    update alert_deliveries d set lease_until = now() + make_interval(secs => ${leaseSeconds})
      from (select id from alert_deliveries where id = any(${ids(list)}::bigint[]) and lease_owner = ${owner}
             order by id for no key update skip locked) mine
     where d.id = mine.id`);
}

/** Leases given back at once (a batch that could not be recorded): the rows are claimed again. */
export async function releaseAlertLeases({ ids: list, owner }: { ids: number[]; owner: string }): Promise<void> {
  await db().execute(sql`
    update alert_deliveries d set lease_owner = null, lease_until = null
      from (select id from alert_deliveries where id = any(${ids(list)}::bigint[]) and lease_owner = ${owner}
             order by id for no key update) mine
     where d.id = mine.id`);
}

/** A stopping worker gives back what it still holds (as releaseOwnLeases does for notifications). */
export async function releaseOwnAlertLeases(owner: string): Promise<void> {
  await db().execute(sql`
    update alert_deliveries set lease_owner = null, lease_until = null
     where status = 'PENDING' and next_attempt_at <= now() and lease_owner = ${owner}`);
}

export type AlertOutcome =
  | { id: number; status: "DELIVERED"; reason: null; outbox?: { recipient: string; subject: string; text: string } }
  | { id: number; status: "FAILED"; reason: string }
  | { id: number; status: "PENDING"; reason: string; at: Date; attempts: number; failingSince: Date };

/**
 * A batch's outcomes in one transaction, each only while this worker still holds its row: decided
 * rows leave the queue, retried ones come due again at their time. Outbox e-mails are kept with them.
 */
export async function recordAlertOutcomes(owner: string, outcomes: AlertOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  await db().transaction(async (tx) => {
    for (const o of [...outcomes].sort((a, b) => a.id - b.id)) {
      const [held] = await tx.execute<{ id: string }>(sql`
        update alert_deliveries set lease_owner = null, lease_until = null, status = ${o.status}, reason = ${o.reason},
               attempts = ${o.status === "PENDING" ? o.attempts : sql`attempts`},
               next_attempt_at = ${o.status === "PENDING" ? o.at.toISOString() : sql`next_attempt_at`},
               failing_since = ${o.status === "PENDING" ? o.failingSince.toISOString() : sql`failing_since`},
               decided_at = ${o.status === "PENDING" ? null : sql`now()`}
         where id = ${o.id} and lease_owner = ${owner} and status = 'PENDING'
        returning id`);
      if (held && o.status === "DELIVERED" && o.outbox)
        await tx.execute(sql`insert into email_outbox (alert_delivery_id, recipient, subject, text)
          values (${o.id}, ${o.outbox.recipient}, ${o.outbox.subject}, ${o.outbox.text})`);
    }
  });
}
