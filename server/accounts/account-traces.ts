import { and, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { accountGrants, type Environment } from "@/db/schema";

// What an account deletion must remove itself because no foreign key reaches it
// (docs/decisions/0104-account-deletion-leaves-no-trace.md), and the apps to tell.

/** The apps that could reach the account: its live grants (created or authorized), locked until the delete. */
export async function appsWithAccess(tx: Executor, { accountId }: { accountId: number }): Promise<number[]> {
  const rows = await tx
    .select({ appId: accountGrants.appId })
    .from(accountGrants)
    .where(and(eq(accountGrants.accountId, accountId), isNull(accountGrants.revokedAt)))
    .orderBy(accountGrants.appId)
    .for("update");
  return rows.map((r) => r.appId);
}

/**
 * Rows that name the account or its vehicles without a key to them: the devices assigned to its
 * vehicles (their serial is the vehicle's other id; a key would only unassign them) and what the
 * device gateway kept of them (device_contacts, keyed by the serial), the sign-in
 * throttle counted for its username, copies of its notifications in the sandbox inboxes and the
 * e-mail outbox.
 */
export async function deleteAccountTraces(
  tx: Executor,
  { accountId, environment, username }: { accountId: number; environment: Environment; username: string },
): Promise<void> {
  await tx.execute(sql`
    delete from device_contacts c using devices d
     where d.vehicle_id in (select id from vehicles where account_id = ${accountId})
       and c.environment = d.environment and c.device_id = d.serial`);
  await tx.execute(sql`
    delete from devices where vehicle_id in (select id from vehicles where account_id = ${accountId})`);
  await tx.execute(sql`
    delete from sign_in_throttles where key = ${`account:${environment}:${username.toLowerCase()}`}`);
  await tx.execute(sql`
    delete from email_outbox where notification_delivery_id in (
      select nd.id from notification_deliveries nd join notifications n on n.id = nd.notification_id
       where n.account_id = ${accountId})`);
}
