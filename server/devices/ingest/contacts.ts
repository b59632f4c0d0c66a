import { rawSql } from "@/db/client";
import type { Sql } from "@/db/fragments";
import type { Environment } from "@/db/schema";

// What the gateway keeps of each device id (device_contacts, docs/devices.md#what-the-gateway-keeps):
// the statements that write it. What records change is written by the batch that stores them
// (batch.ts), in its transaction; the rest on its own, since nothing else depends on it.

export type DeviceProtocol = "osmand" | "teltonika" | "gt06";

/** The refusal recorded for an id no vehicle names. */
const UNKNOWN_ID = "no vehicle has this deviceId";

/** How long an id no vehicle names is remembered after its last contact. */
const UNKNOWN_KEPT = "7 days";

// The calendar day (UTC) the records of the day are counted on.
const today = (sql: Sql) => sql`(now() at time zone 'UTC')::date`;

/** Contacts of ids no vehicle names, in the batch that found them so (or on the pool). */
export async function recordUnknown(
  sql: Sql,
  environment: Environment,
  contacts: { deviceId: string; protocol: DeviceProtocol }[],
): Promise<void> {
  if (contacts.length === 0) return;
  await sql`
    insert into device_contacts (environment, device_id, protocol, last_contact_at, last_refusal_at, last_refusal_reason, unknown_contacts)
    select ${environment}, u.device_id, u.protocol, now(), now(), ${UNKNOWN_ID}, u.n
      from (select device_id, min(protocol) as protocol, count(*)::int as n
              from unnest(${contacts.map((c) => c.deviceId)}::text[], ${contacts.map((c) => c.protocol)}::text[]) as c(device_id, protocol)
             group by device_id) u
    on conflict (environment, device_id) do update set protocol = excluded.protocol, last_contact_at = excluded.last_contact_at,
      last_refusal_at = excluded.last_refusal_at, last_refusal_reason = excluded.last_refusal_reason,
      unknown_contacts = device_contacts.unknown_contacts + excluded.unknown_contacts`;
}

export type StoredContact = {
  deviceId: string;
  protocol: DeviceProtocol;
  /** Records new to the vehicle (duplicates of stored ones not counted), and the newest of their times. */
  fresh: number;
  newest: Date | null;
  ignition: boolean | null;
  motionAt: Date | null;
};

/** The contacts of devices whose records the batch stored, with the trip state they leave (ignition.ts). */
export async function recordStored(sql: Sql, environment: Environment, contacts: StoredContact[]): Promise<void> {
  if (contacts.length === 0) return;
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  await sql`
    insert into device_contacts (environment, device_id, protocol, last_contact_at, last_record_at, records_day, records_on_day, ignition, motion_at)
    select ${environment}, u.device_id, u.protocol, now(), u.newest, ${today(sql)}, u.fresh, u.ignition, u.motion_at
      from unnest(${contacts.map((c) => c.deviceId)}::text[], ${contacts.map((c) => c.protocol)}::text[],
                  ${contacts.map((c) => c.fresh)}::int[], ${contacts.map((c) => iso(c.newest))}::timestamptz[],
                  ${contacts.map((c) => c.ignition)}::boolean[], ${contacts.map((c) => iso(c.motionAt))}::timestamptz[])
           as u(device_id, protocol, fresh, newest, ignition, motion_at)
    on conflict (environment, device_id) do update set protocol = excluded.protocol, last_contact_at = excluded.last_contact_at,
      last_record_at = greatest(device_contacts.last_record_at, excluded.last_record_at),
      records_on_day = case when device_contacts.records_day = excluded.records_day
                            then device_contacts.records_on_day + excluded.records_on_day else excluded.records_on_day end,
      records_day = excluded.records_day, ignition = excluded.ignition, motion_at = excluded.motion_at`;
}

/** Ids no vehicle names, not heard from for 7 days: forgotten (the worker's hourly job). */
export async function forgetUnknownDevices(): Promise<number> {
  const rows = await rawSql()<{ device_id: string }[]>`
    delete from device_contacts c
     where c.last_contact_at < now() - ${UNKNOWN_KEPT}::interval
       and not exists (select 1 from devices d where d.environment = c.environment and d.serial = c.device_id and d.vehicle_id is not null)
    returning c.device_id`;
  return rows.length;
}
