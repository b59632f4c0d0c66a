import { testSql, type Env } from "./api";

// What the device gateway keeps of a device id (device_contacts), written as it would have written
// it, for the tests of what the API and the pages show of it: the gateway does not run beside the
// suite's service.

export type Contact = {
  protocol?: "osmand" | "teltonika" | "gt06";
  /** Seconds before now (default 30). */
  contactAgo?: number;
  /** Seconds before now (default 40); null: no record stored. */
  recordAgo?: number | null;
  /** Days before today (UTC) the records were counted on (default 0); null: none. */
  recordsDaysAgo?: number | null;
  records?: number;
  refusal?: { ago: number; reason: string } | null;
  /** The open connection's id, noted at the last contact. */
  connection?: string | null;
};

const before = (seconds: number | null) => (seconds === null ? null : new Date(Date.now() - seconds * 1000));

/** A row as the gateway keeps it; the times it holds. */
export async function seedContact(env: Env, deviceId: string, c: Contact = {}) {
  const contactAt = before(c.contactAgo ?? 30);
  const daysAgo = c.recordsDaysAgo === undefined ? 0 : c.recordsDaysAgo;
  const [row] = await testSql()<{ last_contact_at: Date; last_record_at: Date | null; last_refusal_at: Date | null }[]>`
    insert into device_contacts (environment, device_id, protocol, last_contact_at, last_record_at, records_day,
                                 records_on_day, last_refusal_at, last_refusal_reason, connection, connected_at)
    values (${env}, ${deviceId}, ${c.protocol ?? "teltonika"}, ${contactAt}, ${before(c.recordAgo === undefined ? 40 : c.recordAgo)},
            (now() at time zone 'UTC')::date - ${daysAgo}::int, ${c.records ?? 0},
            ${before(c.refusal?.ago ?? null)}, ${c.refusal?.reason ?? null},
            ${c.connection ?? null}, ${c.connection ? contactAt : null})
    returning last_contact_at, last_record_at, last_refusal_at`;
  return row!;
}
