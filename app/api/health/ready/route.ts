import { processPhase } from "@/server/platform/fleet/process-state";
import { migrationsApplied } from "@/server/platform/fleet/migrations-applied";
import { json } from "@/server/http/with-api";

export const dynamic = "force-dynamic";

// GET /api/health/ready — readiness: 200 when this process should be sent traffic: it is serving
// (not draining after SIGTERM), the database answers and every committed migration is applied.
// 503 otherwise, with the reason in `status`: "draining", "migrating" or "unavailable".
export async function GET() {
  if (processPhase() === "draining") return json(503, { status: "draining" });
  try {
    const migrations = await migrationsApplied();
    if (migrations.applied < migrations.expected) return json(503, { status: "migrating", migrations });
    // SIGTERM may have come while the database was asked: a draining process is not ready.
    if (processPhase() === "draining") return json(503, { status: "draining" });
    return json(200, { status: "ok", migrations });
  } catch {
    return json(503, { status: "unavailable" });
  }
}
