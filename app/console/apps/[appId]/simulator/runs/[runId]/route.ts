import { z } from "zod";
import { withConsoleJson } from "@/server/http/with-console-json";
import { simulatorRunStatus } from "@/server/surfaces/console/simulator";

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

// GET /console/apps/{appId}/simulator/runs/{runId} — one run of the partner's app and its vehicle's
// position, polled by the simulator page every 2 s. Another partner's app or run is a 404.
export const GET = withConsoleJson(ids, "No such simulation in your console.", ({ partner, params }) =>
  simulatorRunStatus(partner.partnerUserId, params.appId, params.runId),
);
