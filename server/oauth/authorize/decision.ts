import { z } from "zod";
import { csrfTokenMatches, crossSitePost } from "@/server/auth/csrf";
import { getDriverSession } from "@/server/auth/session";
import { approveAuthorization, denyAuthorization } from "./complete";
import { resumePath } from "./paths";
import { checkAuthorizationRequest } from "./request";
import { errorPage, redirectTo } from "./responses";

const decisionForm = z.object({ decision: z.enum(["allow", "deny"]), csrf_token: z.string().max(200) });

const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);
const MAX_FORM_BYTES = 64 * 1024;

// POST /oauth/authorize/decision — the consent form. Everything the form carries is checked
// again as if it were a new request (hidden fields are input like any other), the driver must be
// signed in to the app's environment, and the form's CSRF token must belong to that session.
// Answered with 303 so the browser follows to the app with a GET.
export async function handleAuthorizationDecision(request: Request): Promise<Response> {
  const mime = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (!FORM_TYPES.has(mime)) return errorPage(400, "This form could not be read", "The consent form must be posted as a form.");
  if (Number(request.headers.get("content-length") ?? 0) > MAX_FORM_BYTES) return errorPage(400, "This form could not be read", "The consent form is too large.");
  if (crossSitePost(request)) return errorPage(403, "Request refused", "This consent came from another site, so it was ignored.");
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return errorPage(400, "This form could not be read", "The consent form could not be read.");
  }
  const fields = new URLSearchParams();
  for (const [name, value] of form) if (typeof value === "string") fields.append(name, value);

  const check = await checkAuthorizationRequest(fields, null);
  if (check.kind === "invalid") return errorPage(400, check.title, check.message);
  if (check.kind === "error") return redirectTo(check.location, 303);
  const { authorization } = check;

  const session = await getDriverSession();
  // Signed out (or into the other environment) since the page was shown: start the request over.
  if (!session || session.environment !== authorization.client.environment) {
    return redirectTo(resumePath(authorization.params, authorization.client.environment), 303);
  }
  const decision = decisionForm.safeParse({ decision: fields.get("decision"), csrf_token: fields.get("csrf_token") });
  if (!decision.success) return errorPage(400, "This form could not be read", "Choose Allow or Deny on the consent page.");
  if (!csrfTokenMatches(session, "consent", decision.data.csrf_token)) {
    return errorPage(403, "This page has expired", `The consent form no longer matches your sign-in. Start again from ${authorization.client.appName}.`);
  }
  const location = decision.data.decision === "allow" ? await approveAuthorization(authorization, session.accountId) : denyAuthorization(authorization);
  return redirectTo(location, 303);
}
