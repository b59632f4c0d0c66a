import { z } from "zod";
import { getDriverSession } from "@/server/surfaces/driver/session";
import { errorPage, sendTo, type AuthorizationAnswer } from "./answer";
import { approveAuthorization, denyAuthorization } from "@/server/oauth/authorize/complete";
import { consentTokenMatches, locationChoices } from "./consent-token";
import { resumePath } from "./paths";
import { checkAuthorizationRequest } from "@/server/oauth/authorize/request";

const decisionForm = z.object({
  decision: z.enum(["allow", "deny"]),
  csrf_token: z.string().max(200),
  // The precision the driver chose; a form without it (an app that asks for no location, or a
  // client that posts the form itself) grants what the app asked for.
  location: z.enum(["precise", "approximate", "none"]).optional(),
});

// POST /oauth/authorize/decision — the consent form, already read and found to come from our own
// site (server/http/with-authorization-page.ts). The form's token is signed over the session and
// the exact request the page showed (consent-token.ts): with any of the request's fields changed,
// the post ends on our error page, before anything could send the browser to an app. Everything
// the form carries is also checked again as if it were a new request (the app's registration may
// have changed since the page was shown), and the driver must be signed in to the app's environment.
export async function answerConsent(fields: URLSearchParams): Promise<AuthorizationAnswer> {
  const check = await checkAuthorizationRequest(fields, null);
  if (check.kind === "invalid") return errorPage(400, check.title, check.message);
  const session = await getDriverSession();
  // Signed out (or into the other environment) since the page was shown: start the request over,
  // at our own endpoint, which shows it to the driver again.
  if (check.kind === "ok" && (!session || session.environment !== check.authorization.client.environment)) {
    return sendTo(resumePath(check.authorization.params, check.authorization.client.environment));
  }
  if (!session) return expired("the app");
  const decision = decisionForm.safeParse({
    decision: fields.get("decision"),
    csrf_token: fields.get("csrf_token"),
    location: fields.getAll("location").length > 1 ? "twice" : (fields.get("location") ?? undefined),
  });
  if (!decision.success)
    return errorPage(400, "This form could not be read", "Choose Allow or Deny on the consent page.");
  const appName = check.kind === "ok" ? check.authorization.client.appName : "the app";
  if (!consentTokenMatches(session, fields, decision.data.csrf_token)) return expired(appName);
  // The request shown, unchanged, that the service no longer accepts: the app hears why.
  if (check.kind === "error") return sendTo(check.location);
  const { authorization } = check;
  if (decision.data.decision === "deny") return sendTo(denyAuthorization(authorization));
  // Never more than the app asked for (the page offered only those; the token binds the range).
  const location = decision.data.location ?? authorization.asked.location;
  if (!locationChoices(authorization.params.scope).includes(location))
    return errorPage(400, "This form could not be read", `${authorization.client.appName} did not ask for that.`);
  const granted = { ...authorization.asked, location };
  return sendTo(await approveAuthorization(authorization, session.accountId, granted));
}

const expired = (appName: string) =>
  errorPage(
    403,
    "This page has expired",
    `The consent form no longer matches your sign-in or the request it was shown for. Start again from ${appName}.`,
  );
