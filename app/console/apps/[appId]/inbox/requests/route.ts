import { z } from "zod";
import { ConsoleError } from "@/server/console/errors";
import { appInboxRequests } from "@/server/console/inbox";
import { getPartnerSession } from "@/server/console/session";

type Context = { params: Promise<{ appId: string }> };

const appIdParam = z.string().regex(/^\d{1,10}$/).transform(Number);
const afterParam = z.string().regex(/^\d{1,18}$/).transform(Number).optional().catch(undefined);
const noStore = { "Cache-Control": "no-store" };

// GET /console/apps/{appId}/inbox/requests — the sandbox inbox's requests, newest first (only those
// after ?after when given): the inbox page's fallback when Server-Sent Events do not get through.
export async function GET(request: Request, context: Context): Promise<Response> {
  const partner = await getPartnerSession();
  if (!partner) return Response.json({ error: "Your session has ended. Sign in again." }, { status: 401, headers: noStore });
  const appId = appIdParam.safeParse((await context.params).appId);
  if (!appId.success) return Response.json({ error: "No such app in your console." }, { status: 404, headers: noStore });
  const afterId = afterParam.parse(new URL(request.url).searchParams.get("after") ?? undefined);
  try {
    return Response.json({ requests: await appInboxRequests(partner.partnerUserId, appId.data, afterId) }, { headers: noStore });
  } catch (error) {
    if (error instanceof ConsoleError) return Response.json({ error: error.message }, { status: error.status, headers: noStore });
    throw error;
  }
}
