import { sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { grantAllows } from "./grant-check";

// A revocation's or an account deletion's end of the queue (docs/delivery.md#revocation): the
// pending deliveries of the account's notifications that may no longer be sent become FAILED in the
// caller's transaction, so none is attempted once it commits. They are locked FOR UPDATE first:
// that lock waits for a worker that is sending one of them right now (the send gate in claims.ts
// holds FOR KEY SHARE on its rows while it sends; the update alone would take only FOR NO KEY
// UPDATE, which does not wait for it), so a send that passed the gate ends before the revocation
// commits.
//
// `appId` limits it to one app (a revocation); without it every app's deliveries for the account
// go (an account deletion, run before the delete cascades, so that the cascade finds no row in a
// worker's hands). Rows are locked in id order.
export async function cancelAccountDeliveries(
  tx: Executor,
  { accountId, appId, all = false }: { accountId: number; appId?: number; all?: boolean },
): Promise<number> {
  const rows = (await tx.execute(sql`
    with gone as (
      select nd.id from notification_deliveries nd
        join notifications n on n.id = nd.notification_id
       where n.account_id = ${accountId} and nd.status = 'PENDING'
         ${appId === undefined ? sql`` : sql`and n.app_id = ${appId}`}
         ${all ? sql`` : sql`and not ${grantAllows(sql)}`}
       order by nd.id
         for update of nd
    )
    update notification_deliveries set status = 'FAILED', lease_owner = null, lease_until = null
     where id in (select id from gone) returning id`)) as unknown as {
    id: string;
  }[];
  return rows.length;
}
