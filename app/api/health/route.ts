import { sql } from "drizzle-orm";
import { db } from "@/db/client";
import journal from "@/db/migrations/meta/_journal.json";
import { json } from "@/server/http/with-api";

export const dynamic = "force-dynamic";

// GET /api/health — 200 once the database answers and every committed migration is applied
export async function GET() {
  try {
    const rows = await db().execute<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    const applied = rows[0]?.n ?? 0;
    const expected = journal.entries.length;
    return json(applied >= expected ? 200 : 503, { status: applied >= expected ? "ok" : "migrating", migrations: { applied, expected } });
  } catch {
    return json(503, { status: "unavailable" });
  }
}
