import { z } from "zod";
import { csrfTokenMatches, crossSitePost } from "@/server/auth/csrf";
import { getDriverSession } from "@/server/auth/session";
import { idParam } from "@/common/http/fields";
import { revokeAppAuthorization } from "./revocation";

const revokeForm = z.object({ app_id: idParam, csrf_token: z.string().max(200) });

const seeOther = (location: string) => new Response(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store" } });
const refused = (status: number, message: string) => new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

// POST /connected-apps/revoke — the Revoke button of the connected-apps page: the signed-in driver
// ends one app's access (revocation.ts), then lands back on the list (303).
export async function handleDriverRevoke(request: Request): Promise<Response> {
  if (crossSitePost(request)) return refused(403, "This request came from another site and was ignored.");
  const session = await getDriverSession();
  if (!session) return seeOther("/login?callbackUrl=%2Fconnected-apps");
  let fields: Record<string, unknown>;
  try {
    fields = Object.fromEntries(await request.formData());
  } catch {
    return refused(400, "The revoke form could not be read.");
  }
  const form = revokeForm.safeParse(fields);
  if (!form.success) return refused(400, "The revoke form is incomplete.");
  if (!csrfTokenMatches(session, "revoke", form.data.csrf_token)) return refused(403, "This form has expired: reload the page and try again.");
  const revocation = await revokeAppAuthorization({ environment: session.environment, accountId: session.accountId, appId: form.data.app_id });
  return seeOther(revocation ? `/connected-apps?revoked=${form.data.app_id}` : "/connected-apps");
}
