import { processPhase } from "@/server/platform/fleet/process-state";
import { migrationsApplied } from "@/server/platform/fleet/migrations-applied";
import { json } from "@/server/http/with-api";
import { checkReplica } from "@/db/replica";

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
    // A replica that lags or is gone does not make this process unready (its reads go to the
    // primary); it is a detail here, as on /metrics (docs/operations.md#read-replicas).
    const replica = await checkReplica();
    return json(200, {
      status: "ok",
      migrations,
      ...(replica.configured && { replica: { state: replica.state, lagSeconds: replica.lagSeconds } }),
    });
  } catch {
    return json(503, { status: "unavailable" });
  }
}
