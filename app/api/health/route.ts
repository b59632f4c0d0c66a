import { migrationsApplied } from "@/server/platform/fleet/migrations-applied";
import { json } from "@/server/http/with-api";

export const dynamic = "force-dynamic";

// GET /api/health — 200 once the database answers and every committed migration is applied.
// (Load balancers should use /api/health/ready, which also turns 503 while the process drains.)
export async function GET() {
  try {
    const { applied, expected } = await migrationsApplied();
    return json(applied >= expected ? 200 : 503, {
      status: applied >= expected ? "ok" : "migrating",
      migrations: { applied, expected },
    });
  } catch {
    return json(503, { status: "unavailable" });
  }
}
