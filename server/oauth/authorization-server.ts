import { AuthorizationServer, DateInterval, type JwtInterface } from "@jmondi/oauth2-server";
import { ACCESS_TOKEN_TTL_SECONDS } from "./lifetimes";
import { makeRepositories, type GrantContext } from "./repositories";

// The library hands access tokens to a JwtInterface for signing. Wayline issues opaque tokens
// instead (revocable at once, and they reveal nothing): the "signature" is the random token the
// token repository generated, which the library passes as the jti claim. Codes and refresh tokens
// are opaque through the library's own options.
const opaqueTokens: JwtInterface = {
  async sign(payload) {
    if (typeof payload === "object" && payload !== null && !Buffer.isBuffer(payload) && typeof payload.jti === "string")
      return payload.jti;
    throw new Error("Only access tokens are issued through the JwtInterface.");
  },
  async verify() {
    throw new Error("Opaque tokens are looked up, not verified.");
  },
  decode() {
    return null;
  },
};

export function makeAuthorizationServer(ctx: GrantContext): AuthorizationServer {
  const repos = makeRepositories(ctx);
  // PKCE is optional for confidential clients and required for public ones (checked on the
  // authorization page, server/oauth/authorize/request.ts); `plain` is never accepted.
  const server = new AuthorizationServer(
    repos.clientRepository,
    repos.tokenRepository,
    repos.scopeRepository,
    opaqueTokens,
    {
      requiresPKCE: false,
      requiresS256: true,
      useOpaqueAuthorizationCodes: true,
      useOpaqueRefreshTokens: true,
    },
  );
  const ttl = new DateInterval(`${ACCESS_TOKEN_TTL_SECONDS}s`);
  server.enableGrantType("client_credentials", ttl);
  server.enableGrantType("refresh_token", ttl);
  server.enableGrantType(
    { grant: "authorization_code", authCodeRepository: repos.authCodeRepository, userRepository: repos.userRepository },
    ttl,
  );
  // The implicit grant answers at the authorization page only, and never with a refresh token.
  server.enableGrantType("implicit", ttl);
  return server;
}
