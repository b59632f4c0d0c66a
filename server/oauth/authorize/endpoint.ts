import { db } from "@/db/client";
import type { Environment } from "@/db/schema";
import { hasActiveGrant } from "@/server/accounts/queries";
import { getDriverSession } from "@/server/auth/session";
import { approveAuthorization, interactionRequired } from "./complete";
import { continuePath } from "./paths";
import { checkAuthorizationRequest } from "./request";
import { errorPage, redirectTo } from "./responses";

// GET /oauth/authorize and /sandbox/oauth/authorize (docs/oauth.md). The protocol step: check the
// request, then either answer at once (an error for the app; a driver signed in to the app's
// environment who already allowed the app, unless prompt=login or prompt=consent) or send the
// browser to the page where the driver signs in or registers and decides.
export async function handleAuthorizationRequest(request: Request, endpointEnvironment: Environment | null): Promise<Response> {
  const check = await checkAuthorizationRequest(new URL(request.url).searchParams, endpointEnvironment);
  if (check.kind === "invalid") return errorPage(400, check.title, check.message);
  if (check.kind === "error") return redirectTo(check.location, 302);

  const { authorization } = check;
  const { client, params } = authorization;
  const session = await getDriverSession();
  // A session of the other environment is another account: it does not count here.
  const driver = session?.environment === client.environment ? session : null;
  const consented = driver ? await hasActiveGrant(db(), { accountId: driver.accountId, appId: client.appId }) : false;

  if (params.prompt.includes("none")) {
    if (!driver) return redirectTo(interactionRequired(authorization, "login_required"), 302);
    if (!consented) return redirectTo(interactionRequired(authorization, "consent_required"), 302);
  }
  const mustInteract = params.prompt.includes("login") || params.prompt.includes("consent");
  if (driver && consented && !mustInteract) return redirectTo(await approveAuthorization(authorization, driver.accountId), 302);
  return redirectTo(continuePath(params), 302);
}
