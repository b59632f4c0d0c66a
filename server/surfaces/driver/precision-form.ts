import { z } from "zod";
import { ApiError } from "@/common/http/errors";
import { idParam } from "@/common/http/fields";
import { csrfTokenMatches } from "@/server/surfaces/driver/csrf";
import type { DriverSession } from "@/server/surfaces/driver/session";
import { changeGrantPrecision } from "@/server/grants/precision";

const precisionForm = z.object({
  app_id: idParam,
  location: z.enum(["precise", "approximate", "none"]),
  csrf_token: z.string().max(200),
});

// The location choice on the connected-apps page (POST /connected-apps/precision, behind
// withDriverForm): the signed-in driver changes how precisely one app sees their vehicles
// (server/grants/precision.ts). Answers the page to go back to.
export async function changePrecisionFromSite(session: DriverSession, fields: Record<string, unknown>) {
  const form = precisionForm.safeParse(fields);
  if (!form.success) throw new ApiError("VALIDATION", "The location form is incomplete.");
  if (!csrfTokenMatches(session, "precision", form.data.csrf_token))
    throw new ApiError("FORBIDDEN", "This form has expired: reload the page and try again.");
  await changeGrantPrecision({ accountId: session.accountId, appId: form.data.app_id, precision: form.data.location });
  return `/connected-apps?changed=${form.data.app_id}`;
}
