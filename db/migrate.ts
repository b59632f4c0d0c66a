import path from "node:path";
import { fileURLToPath } from "node:url";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { migrateQueue } from "@/server/delivery/queue";
import { rawSql, type Database } from "./client";

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");
const MIGRATION_LOCK = 7245001;

// Applies the committed migrations, then graphile-worker's own (the delivery queue's schema,
// recorded in graphile_worker.migrations): the trigger of migration 0006 calls into it. A session advisory lock, held on a connection of its own,
// keeps two processes starting at once (app and worker) from applying the same migration twice.
export async function runMigrations(db: Database): Promise<void> {
  const lock = await rawSql().reserve();
  try {
    await lock`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migrate(db, { migrationsFolder });
    await migrateQueue();
  } finally {
    await lock`select pg_advisory_unlock(${MIGRATION_LOCK})`.catch(() => {});
    lock.release();
  }
}
