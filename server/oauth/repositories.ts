import { randomUUID } from "node:crypto";
import {
  OAuthException,
  type GrantIdentifier,
  type OAuthAuthCode,
  type OAuthAuthCodeRepository,
  type OAuthClient,
  type OAuthClientRepository,
  type OAuthScope,
  type OAuthScopeRepository,
  type OAuthToken,
  type OAuthTokenRepository,
  type OAuthUserRepository,
} from "@jmondi/oauth2-server";
import type { Executor } from "@/db/client";
import type { Environment } from "@/db/schema";
import { hashMatches, randomToken, sha256 } from "@/server/platform/security/secrets";
import { formatScope, isFullGrant } from "@/common/oauth/grant-scope";
import { ACCESS_TOKEN_TTL_SECONDS, CODE_TTL_SECONDS, REFRESH_TOKEN_GRACE_MS } from "./lifetimes";
import {
  consumeCode,
  findCodeByHash,
  findCredentialByClientId,
  findCredentialById,
  findTokenByRefreshHash,
  insertToken,
  lockActiveGrant,
  markRefreshUsed,
  revokeFamily,
  revokeTokensFromCode,
  setRefreshToken,
  type CredentialRow,
} from "./queries";

// The storage side of @jmondi/oauth2-server, one set per token request, all on that request's
// transaction. Revocations caused by a failed request (a reused code or refresh token) must
// outlive its rollback, so they are queued in `afterFailure` and run by the token endpoint once
// the transaction is gone.
export type GrantContext = {
  tx: Executor;
  /** The environment of the endpoint, when it only serves one (the /sandbox/ paths). */
  environment: Environment | null;
  afterFailure: ((db: Executor) => Promise<void>)[];
  /** Whether the token request carried a code_verifier (the PKCE checks of authCodeRepository). */
  codeVerifierSent?: boolean;
  /** Set once the client's secret matched: the request then spends the client's rate-limit budget, not its address's. */
  clientAuthenticated?: boolean;
  /** What the issued token's grant holds, as the token answer's `scope` says it (common/oauth/grant-scope.ts). */
  grantedScope?: string;
};

export type WaylineClient = OAuthClient & { credential: CredentialRow };

const invalidGrant = (why: string) => OAuthException.invalidGrant(why);

function toClient(credential: CredentialRow): WaylineClient {
  return {
    id: credential.clientId,
    name: credential.appName,
    // The library treats a client with a secret as confidential; we hand it the hash, which
    // isClientValid compares against.
    secret: credential.isPublic ? null : credential.secretHash,
    redirectUris: credential.redirectUris,
    allowedGrants: [
      "authorization_code",
      "refresh_token",
      "implicit",
      ...(credential.isPublic ? [] : ["client_credentials" as const]),
    ],
    scopes: [],
    credential,
  };
}

export function makeRepositories(ctx: GrantContext) {
  // Rows behind the entities the library passes back to us.
  const tokenRow = new WeakMap<OAuthToken, { id: number; familyId: string; refreshHash: string | null }>();
  const codeIds = new Map<string, number>();
  let rotatedFamily: string | null = null;

  const loadClient = async (clientId: string) => {
    const credential = await findCredentialByClientId(ctx.tx, { clientId });
    if (!credential || (ctx.environment && credential.environment !== ctx.environment))
      throw OAuthException.invalidClient("Unknown client.");
    return toClient(credential);
  };

  const clientRepository: OAuthClientRepository = {
    getByIdentifier: loadClient,
    async isClientValid(grantType: GrantIdentifier, client: OAuthClient, clientSecret?: string) {
      if (!client.allowedGrants.includes(grantType)) return false;
      const { credential } = client as WaylineClient;
      if (clientSecret === undefined) return credential.isPublic;
      const matched = hashMatches(clientSecret, credential.secretHash);
      if (matched) ctx.clientAuthenticated = true;
      return matched;
    },
  };

  // Scopes are checked and granted by the authorization page (authorize/request.ts, common/oauth/grant-scope.ts),
  // which records them on the grant; the library is handed them as they came and passes them on.
  const scopeRepository: OAuthScopeRepository = {
    async getAllByIdentifiers(names: string[]) {
      return names.filter(Boolean).map((name) => ({ name }));
    },
    async finalize(scopes: OAuthScope[]) {
      return scopes;
    },
  };

  const userRepository: OAuthUserRepository = {
    async getUserByCredentials(identifier) {
      return { id: identifier };
    },
  };

  const authCodeRepository: OAuthAuthCodeRepository = {
    async getByIdentifier(code: string): Promise<OAuthAuthCode> {
      const row = await findCodeByHash(ctx.tx, { codeHash: sha256(code) });
      if (!row) throw invalidGrant("Unknown authorization code.");
      const credential = await findCredentialById(ctx.tx, { credentialId: row.credentialId });
      if (!credential) throw invalidGrant("Unknown authorization code.");
      // PKCE beyond the library (RFC 7636, RFC 9700 §2.1.1): a code_verifier for a code issued
      // without a challenge is a downgrade (someone stripped the challenge from the authorization
      // request) and fails, as does a code bound to a challenge exchanged without a verifier. A
      // used code skips this, so that its replay still revokes what it issued.
      if (row.usedAt === null && !row.codeChallenge && ctx.codeVerifierSent) {
        throw invalidGrant("code_verifier was sent, but the authorization request had no code_challenge.");
      }
      if (row.usedAt === null && row.codeChallenge && ctx.codeVerifierSent === false) {
        throw invalidGrant("code_verifier is required: the authorization request had a code_challenge.");
      }
      codeIds.set(code, row.id);
      return {
        code,
        // undefined, not null: the library compares it strictly with the request's redirect_uri,
        // which is absent for codes from account creation.
        redirectUri: row.redirectUri ?? undefined,
        codeChallenge: row.codeChallenge,
        codeChallengeMethod: row.codeChallengeMethod as OAuthAuthCode["codeChallengeMethod"],
        expiresAt: row.expiresAt,
        user: { id: row.accountId },
        client: toClient(credential),
        scopes: row.scopes ? row.scopes.split(" ").map((name) => ({ name })) : [],
      };
    },
    issueAuthCode(client: OAuthClient, user, scopes: OAuthScope[]) {
      return {
        code: randomToken(),
        expiresAt: new Date(Date.now() + CODE_TTL_SECONDS * 1000),
        client,
        user,
        scopes,
        redirectUri: null,
      };
    },
    async persist() {
      throw new Error("Authorization-page codes are issued by server/oauth/codes.ts, not through the library.");
    },
    async isRevoked(code: string) {
      const row = await findCodeByHash(ctx.tx, { codeHash: sha256(code) });
      return !row || row.usedAt !== null;
    },
    async revoke(code: string) {
      // The conditional update is the single-use guarantee: of two concurrent exchanges only
      // one marks the code; the other fails and its twin's tokens are revoked.
      if (!(await consumeCode(ctx.tx, { codeHash: sha256(code) }))) {
        ctx.afterFailure.push((db) => revokeTokensFromCode(db, { codeHash: sha256(code) }));
        throw invalidGrant("The authorization code has already been used.");
      }
    },
  };

  const tokenRepository: OAuthTokenRepository = {
    async issueToken(client: OAuthClient, scopes: OAuthScope[], user) {
      return { accessToken: randomToken(), accessTokenExpiresAt: new Date(), client, user: user ?? null, scopes };
    },
    async persist(token: OAuthToken) {
      const { credential } = token.client as WaylineClient;
      // A token for an account only while the account grants the app access: a code or refresh
      // token that outlived a revocation buys nothing. The shared row lock orders this against a
      // concurrent revocation (server/grants/revocation.ts), which locks the grant for update.
      if (token.user) {
        const grant = await lockActiveGrant(ctx.tx, { accountId: Number(token.user.id), appId: credential.appId });
        if (!grant) throw invalidGrant("The driver has revoked this app's access.");
        // The answer's `scope` is what the driver granted now, whatever the code once asked; a
        // grant of everything, precise (what a request without scope means) answers as before
        // scopes existed, without it (RFC 6749 §5.1: optional when it is what was asked).
        if (!isFullGrant(grant)) ctx.grantedScope = formatScope(grant);
      }
      // Every grant's tokens live the same (docs/oauth.md); the library's implicit grant would
      // otherwise give one hour.
      token.accessTokenExpiresAt = new Date(Date.now() + ACCESS_TOKEN_TTL_SECONDS * 1000);
      const familyId = rotatedFamily ?? randomUUID();
      const originCodeId = token.originatingAuthCodeId ? (codeIds.get(token.originatingAuthCodeId) ?? null) : null;
      const grantType = rotatedFamily
        ? "refresh_token"
        : token.originatingAuthCodeId
          ? "authorization_code"
          : token.user
            ? "implicit"
            : "client_credentials";
      const id = await insertToken(ctx.tx, {
        environment: credential.environment,
        credentialId: credential.credentialId,
        accountId: token.user ? Number(token.user.id) : null,
        accessHash: sha256(token.accessToken),
        accessExpiresAt: token.accessTokenExpiresAt,
        familyId,
        originCodeId,
        grantType,
        scopes: token.scopes.map((s) => s.name).join(" "),
      });
      tokenRow.set(token, { id, familyId, refreshHash: null });
    },
    async issueRefreshToken(token: OAuthToken) {
      const row = tokenRow.get(token);
      if (!row) throw new Error("issueRefreshToken before persist");
      token.refreshToken = randomToken();
      token.refreshTokenExpiresAt = new Date(token.accessTokenExpiresAt.getTime() + REFRESH_TOKEN_GRACE_MS);
      await setRefreshToken(ctx.tx, {
        id: row.id,
        refreshHash: sha256(token.refreshToken),
        refreshExpiresAt: token.refreshTokenExpiresAt,
      });
      return token;
    },
    async getByRefreshToken(refreshToken: string) {
      const row = await findTokenByRefreshHash(ctx.tx, { refreshHash: sha256(refreshToken) });
      if (!row) throw invalidGrant("Unknown refresh token.");
      const credential = await findCredentialById(ctx.tx, { credentialId: row.credentialId });
      if (!credential) throw invalidGrant("Unknown refresh token.");
      const token: OAuthToken = {
        accessToken: "",
        accessTokenExpiresAt: row.accessExpiresAt,
        refreshToken,
        refreshTokenExpiresAt: row.refreshExpiresAt,
        client: toClient(credential),
        user: row.accountId === null ? null : { id: row.accountId },
        scopes: row.scopes ? row.scopes.split(" ").map((name) => ({ name })) : [],
      };
      tokenRow.set(token, { id: row.id, familyId: row.familyId, refreshHash: row.refreshHash });
      if (row.refreshUsedAt !== null) {
        // Reuse of a rotated refresh token: someone holds a copy. End the whole family.
        ctx.afterFailure.push((db) => revokeFamily(db, { familyId: row.familyId }));
        throw invalidGrant("The refresh token has already been used; its token family is revoked.");
      }
      if (row.revokedAt !== null) throw invalidGrant("The refresh token has been revoked.");
      return token;
    },
    async isRefreshTokenRevoked(token: OAuthToken) {
      const row = tokenRow.get(token);
      return !row;
    },
    async revoke(token: OAuthToken) {
      const row = tokenRow.get(token);
      if (!row) throw new Error("revoke of an unknown token");
      if (!(await markRefreshUsed(ctx.tx, { id: row.id }))) {
        ctx.afterFailure.push((db) => revokeFamily(db, { familyId: row.familyId }));
        throw invalidGrant("The refresh token has already been used; its token family is revoked.");
      }
      rotatedFamily = row.familyId;
    },
    async revokeDescendantsOf(authCodeId: string) {
      ctx.afterFailure.push((db) => revokeTokensFromCode(db, { codeHash: sha256(authCodeId) }));
    },
  };

  return { clientRepository, scopeRepository, userRepository, authCodeRepository, tokenRepository };
}
