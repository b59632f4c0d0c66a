import type { Environment } from "@/db/schema";
import { withOAuthEndpoint } from "@/server/http/with-oauth-endpoint";
import { grantToken } from "@/server/oauth/token-grant";
import { revokeToken } from "@/server/oauth/token-revocation";

// The handlers of the token and revocation endpoints, one route each per environment path
// (/oauth/… for both environments, the client id decides; /sandbox/oauth/… for sandbox clients only).

/** POST /oauth/token: the token, or an RFC 6749 error. */
export const tokenEndpoint = (environment: Environment | null) =>
  withOAuthEndpoint("token", (form, proof) => grantToken(form, environment, proof));

/** POST /oauth/revoke (RFC 7009): 200 with no body, whether or not the token was known. */
export const revocationEndpoint = (environment: Environment | null) =>
  withOAuthEndpoint("revocation", async (form, proof) => {
    await revokeToken(form, environment, proof);
    return null;
  });
