import { z } from "zod";
import { ConsoleError } from "@/server/console/errors";
import { getPartnerSession } from "@/server/console/session";
import { simulatorRunStatus } from "@/server/console/simulator";

type Context = { params: Promise<{ appId: string; runId: string }> };

const ids = z.object({ appId: z.string().regex(/^\d{1,10}$/).transform(Number), runId: z.string().regex(/^\d{1,10}$/).transform(Number) });
const noStore = { "Cache-Control": "no-store" };

// GET /console/apps/{appId}/simulator/runs/{runId} — one run of the partner's app and its vehicle's
// position, polled by the simulator page every 2 s. Another partner's app or run is a 404.
export async function GET(_request: Request, context: Context): Promise<Response> {
  const partner = await getPartnerSession();
  if (!partner) return Response.json({ error: "Your session has ended. Sign in again." }, { status: 401, headers: noStore });
  const parsed = ids.safeParse(await context.params);
  if (!parsed.success) return Response.json({ error: "No such simulation in your console." }, { status: 404, headers: noStore });
  try {
    return Response.json(await simulatorRunStatus(partner.partnerUserId, parsed.data.appId, parsed.data.runId), { headers: noStore });
  } catch (error) {
    if (error instanceof ConsoleError) return Response.json({ error: error.message }, { status: error.status, headers: noStore });
    throw error;
  }
}
