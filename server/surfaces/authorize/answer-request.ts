import { db } from "@/db/client";
import type { Environment } from "@/db/schema";
import { hasActiveGrant } from "@/server/accounts/queries";
import { getDriverSession } from "@/server/surfaces/driver/session";
import { errorPage, sendTo, type AuthorizationAnswer } from "./answer";
import { approveAuthorization, interactionRequired } from "@/server/oauth/authorize/complete";
import { continuePath } from "./paths";
import { checkAuthorizationRequest } from "@/server/oauth/authorize/request";

// GET /oauth/authorize and /sandbox/oauth/authorize (docs/oauth.md). The protocol step: check the
// request, then either answer at once (an error for the app; a driver signed in to the app's
// environment who already allowed the app, unless prompt=login or prompt=consent) or send the
// browser to the page where the driver signs in or registers and decides.
export async function answerAuthorizationRequest(
  query: URLSearchParams,
  endpointEnvironment: Environment | null,
): Promise<AuthorizationAnswer> {
  const check = await checkAuthorizationRequest(query, endpointEnvironment);
  if (check.kind === "invalid") return errorPage(400, check.title, check.message);
  if (check.kind === "error") return sendTo(check.location);

  const { authorization } = check;
  const { client, params } = authorization;
  const session = await getDriverSession();
  // A session of the other environment is another account: it does not count here.
  const driver = session?.environment === client.environment ? session : null;
  const consented = driver ? await hasActiveGrant(db(), { accountId: driver.accountId, appId: client.appId }) : false;

  if (params.prompt.includes("none")) {
    if (!driver) return sendTo(interactionRequired(authorization, "login_required"));
    if (!consented) return sendTo(interactionRequired(authorization, "consent_required"));
  }
  const mustInteract = params.prompt.includes("login") || params.prompt.includes("consent");
  if (driver && consented && !mustInteract)
    return sendTo(await approveAuthorization(authorization, driver.accountId, null));
  return sendTo(continuePath(params));
}
