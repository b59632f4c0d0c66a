import { z } from "zod";
import { crossSitePost } from "@/server/auth/csrf";
import { getDriverSession } from "@/server/auth/session";
import { approveAuthorization, denyAuthorization } from "./complete";
import { consentTokenMatches } from "./consent-token";
import { resumePath } from "./paths";
import { checkAuthorizationRequest } from "./request";
import { errorPage, redirectTo } from "./responses";

const decisionForm = z.object({ decision: z.enum(["allow", "deny"]), csrf_token: z.string().max(200) });

const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);
const MAX_FORM_BYTES = 64 * 1024;

// POST /oauth/authorize/decision — the consent form. The form's token is signed over the session
// and the exact request the page showed (consent-token.ts): with any of the request's fields
// changed, the post ends on our error page, before anything could send the browser to an app.
// Everything the form carries is also checked again as if it were a new request (the app's
// registration may have changed since the page was shown), and the driver must be signed in to
// the app's environment. Answered with 303 so the browser follows to the app with a GET.
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
  const session = await getDriverSession();
  // Signed out (or into the other environment) since the page was shown: start the request over,
  // at our own endpoint, which shows it to the driver again.
  if (check.kind === "ok" && (!session || session.environment !== check.authorization.client.environment)) {
    return redirectTo(resumePath(check.authorization.params, check.authorization.client.environment), 303);
  }
  if (!session) return expired("the app");
  const decision = decisionForm.safeParse({ decision: fields.get("decision"), csrf_token: fields.get("csrf_token") });
  if (!decision.success) return errorPage(400, "This form could not be read", "Choose Allow or Deny on the consent page.");
  const appName = check.kind === "ok" ? check.authorization.client.appName : "the app";
  if (!consentTokenMatches(session, fields, decision.data.csrf_token)) return expired(appName);
  // The request shown, unchanged, that the service no longer accepts: the app hears why.
  if (check.kind === "error") return redirectTo(check.location, 303);
  const { authorization } = check;
  const location = decision.data.decision === "allow" ? await approveAuthorization(authorization, session.accountId) : denyAuthorization(authorization);
  return redirectTo(location, 303);
}

const expired = (appName: string) =>
  errorPage(403, "This page has expired", `The consent form no longer matches your sign-in or the request it was shown for. Start again from ${appName}.`);
