import { sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { grantAllows } from "./grant-check";

// A revocation's or an account deletion's end of the queue (docs/delivery.md#revocation): the
// pending deliveries of the account's notifications that may no longer be sent leave the queue
// (their delivery_jobs entry is deleted, the row becomes FAILED) in the caller's transaction, so
// none is attempted once it commits. Deleting the entry takes its row lock, so this waits for a
// worker that is sending the entry right now (the send gate in claims.ts holds FOR KEY SHARE on
// its entries while it sends): a send that passed the gate ends before the revocation commits.
//
// `appId` limits it to one app (a revocation); without it every app's deliveries for the account
// go (an account deletion, run before the delete cascades, so that the cascade finds no entry in
// a worker's hands). Entries are locked in id order, as the claim takes them.
export async function cancelAccountDeliveries(
  tx: Executor,
  { accountId, appId, all = false }: { accountId: number; appId?: number; all?: boolean },
): Promise<number> {
  const rows = (await tx.execute(sql`
    with gone as (
      select nd.id from notification_deliveries nd
        join notifications n on n.id = nd.notification_id
        join delivery_jobs j on j.notification_delivery_id = nd.id
       where n.account_id = ${accountId} and nd.status = 'PENDING'
         ${appId === undefined ? sql`` : sql`and n.app_id = ${appId}`}
         ${all ? sql`` : sql`and not ${grantAllows(sql)}`}
       order by nd.id
         for update of j
    ), jobs as (
      delete from delivery_jobs where notification_delivery_id in (select id from gone)
    )
    update notification_deliveries set status = 'FAILED' where id in (select id from gone) returning id`)) as unknown as {
    id: string;
  }[];
  return rows.length;
}
