import { sql } from "drizzle-orm";
import { db, type Tx } from "./client";
import { lockNotAvailable } from "./errors";

// Time partitions (docs/partitions.md): data_sets and data_points by recorded_at, delivery_attempts by
// attempted_at, one partition a calendar month (UTC) named <table>_pYYYYMM, beside <table>_default, which
// takes the rows of any month not made. The SQL functions are migration 0028's (which made the months of the
// rows there and 3 ahead); here the worker's side: the months ahead made, the months older than a cutoff
// found and dropped. Retention decides what a month's rows take with them (server/telemetry/retention.ts,
// server/delivery/attempt-retention.ts).

/** Each partitioned table and the column it is partitioned by. */
const PARTITIONED = {
  data_sets: "recorded_at",
  data_points: "recorded_at",
  delivery_attempts: "attempted_at",
} as const;
export type PartitionedTable = keyof typeof PARTITIONED;

/** How many months ahead of the current one the worker keeps made. */
const MONTHS_AHEAD = 3;

export type MonthPartition = { name: string; from: Date; to: Date };

/**
 * Makes this month's partition and the next `ahead` months' of every partitioned table, where missing
 * (the rows of those months the default partition holds move in); how many it made. Several workers may
 * run it at once: each partition is made under a lock on its name, once.
 */
export async function ensurePartitions({ ahead = MONTHS_AHEAD }: { ahead?: number } = {}): Promise<number> {
  let made = 0;
  for (const [table, key] of Object.entries(PARTITIONED)) {
    const [row] = await db().execute<{ made: number }>(
      sql`select wayline_ensure_partitions(${table}, ${key}, ${ahead}) as made`,
    );
    made += row?.made ?? 0;
  }
  return made;
}

const NAMED = /^(.+)_p(\d{4})(\d{2})$/;

/** The table's month partitions, oldest first (the default partition is not one). */
async function monthPartitions(table: PartitionedTable): Promise<MonthPartition[]> {
  const rows = await db().execute<{ name: string }>(
    sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
         where i.inhparent = ${table}::regclass order by c.relname`,
  );
  return rows.flatMap(({ name }) => {
    const m = NAMED.exec(name);
    if (!m || m[1] !== table) return [];
    const year = Number(m[2]);
    const month = Number(m[3]) - 1;
    return [{ name, from: new Date(Date.UTC(year, month, 1)), to: new Date(Date.UTC(year, month + 1, 1)) }];
  });
}

/** The month partitions whose every row is older than `cutoff`. */
export async function partitionsBefore(table: PartitionedTable, cutoff: Date): Promise<MonthPartition[]> {
  return (await monthPartitions(table)).filter((p) => p.to.getTime() <= cutoff.getTime());
}

/**
 * Takes a month partition out of its table within `tx`, which holds what must change with its rows (the
 * counters: server/telemetry/retention.ts): `DETACH PARTITION`, under the whole table's lock, and a rename to
 * `<name>_detached`. At the commit the month's rows leave the table at once, and no file is removed: removing a
 * month's files took 2.6 s at the commit of a `TRUNCATE` of 12.6 million points (bench:scale), and every request
 * on the counters beside it waited for it; a `DROP` of the attached partition removes them the same way, holding
 * the whole table's lock. The detached table is dropped after (dropDetached), where no request waits for it. The
 * table's lock is waited for at most as long as `tx`'s lock_timeout allows: every read and write of the table
 * queues behind a lock request.
 */
export async function detachPartition(tx: Tx, table: PartitionedTable, partition: MonthPartition): Promise<void> {
  await tx.execute(sql`alter table ${sql.identifier(table)} detach partition ${sql.identifier(partition.name)}`);
  await tx.execute(
    sql`alter table ${sql.identifier(partition.name)} rename to ${sql.identifier(detachedName(partition.name))}`,
  );
}

const detachedName = (name: string) => `${name}_detached`;

/**
 * Drops the table's detached months: the one just detached and any that an interrupted run left. They belong
 * to no table any more, so removing their files holds up no request. How many it dropped.
 */
export async function dropDetached(table: PartitionedTable): Promise<number> {
  const rows = await db().execute<{ name: string }>(
    sql`select relname as name from pg_class where relkind = 'r' and relname ~ ${`^${table}_p[0-9]{6}_detached$`} order by relname`,
  );
  for (const { name } of rows) await db().execute(sql`drop table if exists ${sql.identifier(name)}`);
  return rows.length;
}

/**
 * Detaches a month partition and drops it (a month with nothing to change beside it: delivery attempts);
 * false when it could not have the table's lock. It waits at most 200 ms a try for it, a few tries, and
 * otherwise leaves the partition to the next run rather than hold up requests behind a long read.
 */
export async function dropPartition(table: PartitionedTable, partition: MonthPartition): Promise<boolean> {
  for (let attempt = 1; attempt <= DROP_TRIES; attempt++) {
    try {
      await db().transaction(async (tx) => {
        await tx.execute(sql`select set_config('lock_timeout', '200ms', true)`);
        await detachPartition(tx, table, partition);
      });
      await dropDetached(table);
      return true;
    } catch (error) {
      if (!lockNotAvailable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  return false;
}

const DROP_TRIES = 10;
