import { z } from "zod";
import { liveEventsResponse, liveHolders } from "@/server/http/live-events";
import { withConsoleJson } from "@/server/http/with-console-json";
import { openRunStream } from "@/server/surfaces/console/run-stream";

export const dynamic = "force-dynamic";

const ids = z.object({
  appId: z
    .string()
    .regex(/^\d{1,10}$/)
    .transform(Number),
  runId: z
    .string()
    .regex(/^\d{1,10}$/)
    .transform(Number),
});

// GET /console/apps/{appId}/simulator/runs/{runId}/stream — the watched run and its vehicle's
// position as Server-Sent Events, pushed as the vehicle moves. Another partner's app or run is a 404.
export const GET = withConsoleJson(ids, "No such simulation in your console.", ({ partner, params, request }) =>
  liveEventsResponse(request, liveHolders.partner(partner.partnerUserId), (out) =>
    openRunStream(partner, params.appId, params.runId, out),
  ),
);
