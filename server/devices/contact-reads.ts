import { and, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { deviceContacts, type Environment } from "@/db/schema";

// What the gateway kept of device ids (device_contacts), read for the vehicles that name them
// (device-status.ts). The table is written by the gateway alone (server/devices/ingest/contacts.ts);
// this file only reads it, deciding in the statement what depends on the database's clock: the
// records of today (UTC, the day the writer counts on) and whether a noted connection is still open.

export type ContactRow = {
  deviceId: string;
  protocol: (typeof deviceContacts.$inferSelect)["protocol"];
  lastContactAt: Date;
  lastRecordAt: Date | null;
  recordsToday: number;
  lastRefusalAt: Date | null;
  lastRefusalReason: string | null;
  connected: boolean;
};

export async function findContacts(
  db: Executor,
  { environment, deviceIds, idleSeconds }: { environment: Environment; deviceIds: string[]; idleSeconds: number },
): Promise<ContactRow[]> {
  if (deviceIds.length === 0) return [];
  const c = deviceContacts;
  return db
    .select({
      deviceId: c.deviceId,
      protocol: c.protocol,
      lastContactAt: c.lastContactAt,
      lastRecordAt: c.lastRecordAt,
      recordsToday: sql<number>`case when ${c.recordsDay} = (now() at time zone 'UTC')::date
                                     then ${c.recordsOnDay} else 0 end`.mapWith(Number),
      lastRefusalAt: c.lastRefusalAt,
      lastRefusalReason: c.lastRefusalReason,
      // A connection is noted at its first frame and cleared at its end; one that nothing was heard
      // on for longer than the idle time would have been closed, so its end was never noted (the
      // gateway process stopped): not open.
      connected: sql<boolean>`(${c.connection} is not null
                               and ${c.lastContactAt} > now() - make_interval(secs => ${idleSeconds}))`,
    })
    .from(c)
    .where(and(eq(c.environment, environment), inArray(c.deviceId, deviceIds)));
}
