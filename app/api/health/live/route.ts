import { processPhase } from "@/server/platform/fleet/process-state";
import { json } from "@/server/http/with-api";

export const dynamic = "force-dynamic";

// GET /api/health/live — liveness: 200 whenever this process answers at all, the database not
// asked (a database outage must not get every app process restarted). A draining process is
// still alive: it is finishing its requests.
export async function GET() {
  return json(200, { status: "ok", phase: processPhase() });
}
