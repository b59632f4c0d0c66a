import { sql } from "drizzle-orm";
import { db } from "@/db/client";
import type { Environment } from "@/db/schema";
import { notifySilentVehicles } from "@/server/notifications/silence-events";

// Silent devices (docs/devices.md#silent-devices, docs/decisions/0154-device-silence-as-a-due-time.md):
// every batch that stores a device's records sets its silent_at (ingest/contacts.ts recordStored);
// this claims the devices whose silent_at has passed, in silent_at order through the partial index
// device_contacts_silent_idx (only devices still to report are in it, so the read never walks every
// device), clears their silent_at, so each silence is reported once until a record re-arms it, and
// writes their vehicles' VEHICLEDISCONNECTED notifications, all in one transaction: a crash
// between the claim and the notifications reports the silence again rather than losing it.
// FOR UPDATE SKIP LOCKED lets several workers share the due devices.

/** A device reported silent: what a consumer of the silence (the driver's offline alert) needs. */
export type SilentDevice = {
  environment: Environment;
  deviceId: string;
  vehicleId: number;
  accountId: number;
  /** When the device's records were last stored. */
  storedAt: Date;
  /** When it counted as silent (storedAt + DEVICE_SILENT_MINUTES). */
  silentAt: Date;
};

/** Reports up to `limit` devices that went silent; the devices reported (an empty list: none due). */
export async function reportSilentDevices({ limit }: { limit: number }): Promise<SilentDevice[]> {
  return db().transaction(async (tx) => {
    const rows = await tx.execute<{
      environment: Environment;
      device_id: string;
      vehicle_id: number;
      account_id: number;
      stored_at: string;
      silent_at: string;
    }>(sql`
      with due as (
        select c.environment, c.device_id, c.silent_at from device_contacts c
         where c.silent_at is not null and c.silent_at <= now()
         order by c.silent_at
         limit ${limit}
           for update skip locked
      ), cleared as (
        update device_contacts c set silent_at = null
          from due where c.environment = due.environment and c.device_id = due.device_id
        returning c.environment, c.device_id, c.stored_at, due.silent_at
      )
      select cleared.environment, cleared.device_id, d.vehicle_id, v.account_id, cleared.stored_at, cleared.silent_at
        from cleared
        join devices d on d.environment = cleared.environment and d.serial = cleared.device_id and d.vehicle_id is not null
        join vehicles v on v.id = d.vehicle_id`);
    const silent = rows.map((r) => ({
      environment: r.environment,
      deviceId: r.device_id,
      vehicleId: r.vehicle_id,
      accountId: r.account_id,
      storedAt: new Date(r.stored_at),
      silentAt: new Date(r.silent_at),
    }));
    await notifySilentVehicles(tx, silent);
    return silent;
  });
}
