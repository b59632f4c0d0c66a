import { z } from "zod";
import { ApiError } from "@/common/http/errors";
import { idParam } from "@/common/http/fields";
import { csrfTokenMatches } from "@/server/surfaces/driver/csrf";
import type { DriverSession } from "@/server/surfaces/driver/session";
import { revokeAppAuthorization } from "@/server/grants/revocation";

const revokeForm = z.object({ app_id: idParam, csrf_token: z.string().max(200) });

// The Revoke button of the connected-apps page (POST /connected-apps/revoke, behind withDriverForm):
// the signed-in driver ends one app's access (server/grants/revocation.ts). Answers the page to go
// back to.
export async function revokeFromSite(session: DriverSession, fields: Record<string, unknown>): Promise<string> {
  const form = revokeForm.safeParse(fields);
  if (!form.success) throw new ApiError("VALIDATION", "The revoke form is incomplete.");
  if (!csrfTokenMatches(session, "revoke", form.data.csrf_token))
    throw new ApiError("FORBIDDEN", "This form has expired: reload the page and try again.");
  const revocation = await revokeAppAuthorization({
    environment: session.environment,
    accountId: session.accountId,
    appId: form.data.app_id,
  });
  return revocation ? `/connected-apps?revoked=${form.data.app_id}` : "/connected-apps";
}
