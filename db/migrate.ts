import path from "node:path";
import { fileURLToPath } from "node:url";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { rawSql, type Database } from "./client";

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");
const MIGRATION_LOCK = 7245001;

// Applies the committed migrations. A session advisory lock, held on a connection of its own,
// keeps two processes starting at once (app and worker) from applying the same migration twice.
export async function runMigrations(db: Database): Promise<void> {
  const lock = await rawSql().reserve();
  try {
    await lock`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migrate(db, { migrationsFolder });
  } finally {
    await lock`select pg_advisory_unlock(${MIGRATION_LOCK})`.catch(() => {});
    lock.release();
  }
}
