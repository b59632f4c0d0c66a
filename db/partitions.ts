import { sql } from "drizzle-orm";
import { db } from "./client";
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
type PartitionedTable = keyof typeof PARTITIONED;

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
 * Drops a month partition; false when it could not have the table's lock. PostgreSQL takes the whole table's
 * lock for it, and every read and write of the table queues behind the drop while it waits for the statements
 * running on it: so it waits at most 200 ms a try, a few tries, and otherwise leaves the partition to the next
 * run rather than hold up requests behind a long read.
 */
export async function dropPartition(partition: MonthPartition): Promise<boolean> {
  for (let attempt = 1; attempt <= DROP_TRIES; attempt++) {
    try {
      await db().transaction(async (tx) => {
        await tx.execute(sql`select set_config('lock_timeout', '200ms', true)`);
        await tx.execute(sql`drop table if exists ${sql.identifier(partition.name)}`);
      });
      return true;
    } catch (error) {
      if (!lockNotAvailable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  return false;
}

const DROP_TRIES = 10;
