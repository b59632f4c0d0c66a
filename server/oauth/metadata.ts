import type { Environment } from "@/db/schema";
import { SCOPES_SUPPORTED } from "@/common/oauth/grant-scope";
import { publicOrigin } from "@/server/platform/request/public-origin";

// RFC 8414 authorization server metadata, one document per environment. The sandbox is its own
// issuer, `<origin>/sandbox`, whose document lives at the path-inserted well-known URL
// /.well-known/oauth-authorization-server/sandbox (RFC 8414 §3.1). The issuer is configuration,
// never the request's Host (public-origin.ts): a client checks tokens against it.
export function authorizationServerMetadata(environment: Environment) {
  const origin = publicOrigin();
  const base = environment === "sandbox" ? `${origin}/sandbox` : origin;
  const clientAuth = ["client_secret_basic", "client_secret_post", "none"];
  return {
    issuer: base,
    authorization_endpoint: `${base}/oauth/authorize`,
    token_endpoint: `${base}/oauth/token`,
    revocation_endpoint: `${base}/oauth/revoke`,
    response_types_supported: ["code", "token"],
    response_modes_supported: ["query", "fragment"],
    grant_types_supported: ["authorization_code", "implicit", "client_credentials", "refresh_token"],
    token_endpoint_auth_methods_supported: clientAuth,
    revocation_endpoint_auth_methods_supported: clientAuth,
    code_challenge_methods_supported: ["S256"],
    // docs/oauth.md#scopes; a request without any of them gets all, location precise.
    scopes_supported: SCOPES_SUPPORTED,
    prompt_values_supported: ["none", "login", "consent"],
    service_documentation: `${origin}/${environment === "sandbox" ? "sandbox" : "v1"}/api/openapi.json`,
  };
}
