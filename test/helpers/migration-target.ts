import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { SQL } from "drizzle-orm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { inject } from "vitest";
import { freshDatabase, type FreshDatabase } from "./fresh-database";
import { root } from "./processes";

// For the tests of a migration that moves rows (queue-migration.test.ts, partition-migration.test.ts):
// a database made by the migrations up to an earlier one, filled through that schema, then migrated on.

export const migrations = path.join(root, "db", "migrations");

/** A copy of the migrations folder that ends at migration `last` (its journal too). */
export function migrationsTo(last: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `wayline-migrations-${last}-`));
  fs.cpSync(migrations, dir, { recursive: true });
  const journalFile = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalFile, "utf8")) as { entries: { idx: number; tag: string }[] };
  for (const entry of journal.entries.filter((e) => e.idx > last)) fs.rmSync(path.join(dir, `${entry.tag}.sql`));
  journal.entries = journal.entries.filter((e) => e.idx <= last);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

export type MigrationTarget = {
  run(statement: SQL): Promise<Record<string, unknown>[]>;
  migrate(folder: string): Promise<void>;
  close(): Promise<void>;
};

/** An empty database: an embedded PGlite on the embedded run, else one of its own on the suite's PostgreSQL. */
export async function openMigrationTarget(
  prefix: string,
): Promise<{ target: MigrationTarget; fresh: FreshDatabase | null }> {
  if (inject("embedded")) {
    const client = new PGlite();
    const db = drizzlePglite(client);
    return {
      fresh: null,
      target: {
        run: async (statement) => (await db.execute(statement)).rows as Record<string, unknown>[],
        migrate: (folder) => migratePglite(db, { migrationsFolder: folder }),
        close: () => client.close(),
      },
    };
  }
  const fresh = await freshDatabase(inject("databaseUrl"), prefix);
  const client = postgres(fresh.url, { max: 1, onnotice: () => {} });
  const db = drizzlePostgres(client);
  return {
    fresh,
    target: {
      run: async (statement) => (await db.execute(statement)) as unknown as Record<string, unknown>[],
      migrate: (folder) => migratePostgres(db, { migrationsFolder: folder }),
      close: () => client.end(),
    },
  };
}

/** A migration test's afterAll: the database closed and dropped, the cut migrations folder removed (each if made). */
export async function releaseMigrationTarget(
  target: MigrationTarget | undefined,
  fresh: FreshDatabase | null | undefined,
  folder: string | undefined,
): Promise<void> {
  await target?.close();
  await fresh?.drop();
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
}
