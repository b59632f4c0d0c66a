import { sql } from "drizzle-orm";
import { db } from "@/db/client";
import journal from "@/db/migrations/meta/_journal.json";

/** How many of the committed migrations the database has applied (the health checks' question). */
export async function migrationsApplied(): Promise<{ applied: number; expected: number }> {
  const rows = await db().execute<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
  return { applied: rows[0]?.n ?? 0, expected: journal.entries.length };
}
