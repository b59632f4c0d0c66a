import { z } from "zod";
import { appInboxRequests } from "@/server/surfaces/console/inbox";
import { withConsoleJson } from "@/server/http/with-console-json";

const ids = z.object({
  appId: z
    .string()
    .regex(/^\d{1,10}$/)
    .transform(Number),
});
const afterParam = z
  .string()
  .regex(/^\d{1,18}$/)
  .transform(Number)
  .optional()
  .catch(undefined);

// GET /console/apps/{appId}/inbox/requests — the sandbox inbox's requests, newest first (only those
// after ?after when given): the inbox page's fallback when Server-Sent Events do not get through.
export const GET = withConsoleJson(ids, "No such app in your console.", async ({ partner, params, request }) => {
  const afterId = afterParam.parse(new URL(request.url).searchParams.get("after") ?? undefined);
  return { requests: await appInboxRequests(partner.partnerUserId, params.appId, afterId) };
});
