import { rawSql } from "@/db/client";
import type { Sql } from "@/db/fragments";
import type { Environment } from "@/db/schema";
import { LONGEST_DEVICE_ID } from "@/server/vehicles/schemas";

// What the gateway keeps of each device id (device_contacts, docs/devices.md#what-the-gateway-keeps):
// the statements that write it. What records change is written by the batch that stores them
// (batch.ts), in its transaction; the rest on its own, since nothing else depends on it.

export type DeviceProtocol = "osmand" | "teltonika" | "gt06";

/** The refusal recorded for an id no vehicle names. */
export const UNKNOWN_ID = "no vehicle has this deviceId";

/** How long an id no vehicle names is remembered after its last contact. */
const UNKNOWN_KEPT = "7 days";

// The calendar day (UTC) the records of the day are counted on.
const today = (sql: Sql) => sql`(now() at time zone 'UTC')::date`;

/**
 * A TCP device's first frame (Teltonika's IMEI, GT06's login): whether a vehicle names the id.
 * Known: its contact and open connection are noted; unknown: the contact is recorded as refused.
 */
export async function identify(input: {
  environment: Environment;
  deviceId: string;
  protocol: DeviceProtocol;
  connection: string;
}): Promise<boolean> {
  const sql = rawSql();
  const { environment, deviceId, protocol, connection } = input;
  const [row] = await sql<{ known: boolean }[]>`
    with k as (select exists (select 1 from devices where environment = ${environment} and serial = ${deviceId} and vehicle_id is not null) as known),
    noted as (insert into device_contacts (environment, device_id, protocol, last_contact_at, connection, connected_at)
              select ${environment}, ${deviceId}, ${protocol}, now(), ${connection}, now() from k where k.known
              on conflict (environment, device_id) do update set protocol = excluded.protocol, last_contact_at = excluded.last_contact_at,
                connection = excluded.connection, connected_at = excluded.connected_at)
    select known from k`;
  const known = row?.known ?? false;
  if (!known) await recordUnknown(sql, environment, [{ deviceId, protocol }]);
  return known;
}

/**
 * Contacts of ids no vehicle names, in the batch that found them so (or on the pool). An id longer
 * than a vehicle's deviceId can be is not remembered: no vehicle will ever name it, so no driver
 * would see that it tried, and an OsmAnd id can be as long as a URL (a row of kilobytes a request).
 */
export async function recordUnknown(
  sql: Sql,
  environment: Environment,
  all: { deviceId: string; protocol: DeviceProtocol }[],
): Promise<void> {
  const contacts = all.filter((c) => c.deviceId.length <= LONGEST_DEVICE_ID);
  if (contacts.length === 0) return;
  // In id order: two batches at once (queue.ts) that name the same unknown ids lock their rows in one
  // order, and wait for each other rather than deadlock (known ids are under their vehicles' locks).
  await sql`
    insert into device_contacts (environment, device_id, protocol, last_contact_at, last_refusal_at, last_refusal_reason, unknown_contacts)
    select ${environment}, u.device_id, u.protocol, now(), now(), ${UNKNOWN_ID}, u.n
      from (select device_id, min(protocol) as protocol, count(*)::int as n
              from unnest(${contacts.map((c) => c.deviceId)}::text[], ${contacts.map((c) => c.protocol)}::text[]) as c(device_id, protocol)
             group by device_id) u
     order by u.device_id
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

/**
 * The contacts of devices whose records the batch stored, with the trip state they leave (ignition.ts),
 * and when each counts as silent if nothing more is stored (silence.ts): the same statement, so the
 * due time costs ingest no round trip.
 */
export async function recordStored(
  sql: Sql,
  environment: Environment,
  contacts: StoredContact[],
  silentAfterMinutes: number,
): Promise<void> {
  if (contacts.length === 0) return;
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  await sql`
    insert into device_contacts (environment, device_id, protocol, last_contact_at, last_record_at, records_day, records_on_day, ignition, motion_at,
                                 stored_at, silent_at)
    select ${environment}, u.device_id, u.protocol, now(), u.newest, ${today(sql)}, u.fresh, u.ignition, u.motion_at,
           now(), now() + make_interval(secs => ${silentAfterMinutes * 60})
      from unnest(${contacts.map((c) => c.deviceId)}::text[], ${contacts.map((c) => c.protocol)}::text[],
                  ${contacts.map((c) => c.fresh)}::int[], ${contacts.map((c) => iso(c.newest))}::timestamptz[],
                  ${contacts.map((c) => c.ignition)}::boolean[], ${contacts.map((c) => iso(c.motionAt))}::timestamptz[])
           as u(device_id, protocol, fresh, newest, ignition, motion_at)
    on conflict (environment, device_id) do update set protocol = excluded.protocol, last_contact_at = excluded.last_contact_at,
      last_record_at = greatest(device_contacts.last_record_at, excluded.last_record_at),
      records_on_day = case when device_contacts.records_day = excluded.records_day
                            then device_contacts.records_on_day + excluded.records_on_day else excluded.records_on_day end,
      records_day = excluded.records_day, ignition = excluded.ignition, motion_at = excluded.motion_at,
      stored_at = excluded.stored_at, silent_at = excluded.silent_at`;
}

/** A frame or request of a known device refused (a bad CRC, an impossible record, …): its last refusal. */
export async function recordRefusal(input: {
  environment: Environment;
  deviceId: string;
  protocol: DeviceProtocol;
  reason: string;
}): Promise<void> {
  const { environment, deviceId, protocol, reason } = input;
  // Only for an id a vehicle names: what an id no vehicle names sends is not kept beyond the
  // unknown contact itself (recordUnknown).
  await rawSql()`
    insert into device_contacts (environment, device_id, protocol, last_contact_at, last_refusal_at, last_refusal_reason)
    select ${environment}, ${deviceId}, ${protocol}, now(), now(), ${reason.slice(0, 200)}
     where exists (select 1 from devices where environment = ${environment} and serial = ${deviceId} and vehicle_id is not null)
    on conflict (environment, device_id) do update set protocol = excluded.protocol, last_contact_at = excluded.last_contact_at,
      last_refusal_at = excluded.last_refusal_at, last_refusal_reason = excluded.last_refusal_reason`;
}

/** A TCP connection's end: the device is no longer connected, unless a newer connection of it is. */
export async function endConnection(input: {
  environment: Environment;
  deviceId: string;
  connection: string;
}): Promise<void> {
  await rawSql()`
    update device_contacts set connection = null
     where environment = ${input.environment} and device_id = ${input.deviceId} and connection = ${input.connection}`;
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
