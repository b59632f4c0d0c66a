import { z } from "zod";
import { getOwnedApp } from "@/server/console/apps";
import { ConsoleError } from "@/server/console/errors";
import { inboxEventStream } from "@/server/console/inbox-stream";
import { getPartnerSession } from "@/server/console/session";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ appId: string }> };

const appIdParam = z.string().regex(/^\d{1,10}$/).transform(Number);
const afterParam = z.string().regex(/^\d{1,18}$/).transform(Number).catch(0);
const noStore = { "Cache-Control": "no-store" };

// GET /console/apps/{appId}/inbox/events — the sandbox inbox's requests as Server-Sent Events, from
// after ?after (or the Last-Event-ID of a reconnecting EventSource). Another partner's app is a 404.
export async function GET(request: Request, context: Context): Promise<Response> {
  const partner = await getPartnerSession();
  if (!partner) return Response.json({ error: "Your session has ended. Sign in again." }, { status: 401, headers: noStore });
  const appId = appIdParam.safeParse((await context.params).appId);
  if (!appId.success) return Response.json({ error: "No such app in your console." }, { status: 404, headers: noStore });
  try {
    await getOwnedApp(partner.partnerUserId, appId.data);
  } catch (error) {
    if (error instanceof ConsoleError) return Response.json({ error: error.message }, { status: error.status, headers: noStore });
    throw error;
  }
  const afterId = afterParam.parse(request.headers.get("last-event-id") ?? new URL(request.url).searchParams.get("after") ?? "0");
  return new Response(inboxEventStream({ appId: appId.data, afterId, signal: request.signal }), {
    // no-transform and the accel header: nothing between here and the browser may buffer the stream.
    headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store, no-transform", "X-Accel-Buffering": "no" },
  });
}
