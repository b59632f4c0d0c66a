import { z } from "zod";
import { getOwnedApp } from "@/server/surfaces/console/apps";
import { inboxEventStream } from "@/server/surfaces/console/inbox-stream";
import { withConsoleJson } from "@/server/http/with-console-json";

export const dynamic = "force-dynamic";

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
  .catch(0);

// GET /console/apps/{appId}/inbox/events — the sandbox inbox's requests as Server-Sent Events, from
// after ?after (or the Last-Event-ID of a reconnecting EventSource). Another partner's app is a 404.
export const GET = withConsoleJson(ids, "No such app in your console.", async ({ partner, params, request }) => {
  await getOwnedApp(partner.partnerUserId, params.appId);
  const afterId = afterParam.parse(
    request.headers.get("last-event-id") ?? new URL(request.url).searchParams.get("after") ?? "0",
  );
  return new Response(inboxEventStream({ appId: params.appId, afterId, signal: request.signal }), {
    // no-transform and the accel header: nothing between here and the browser may buffer the stream.
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store, no-transform",
      "X-Accel-Buffering": "no",
    },
  });
});
