import type { Executor } from "@/db/client";
import { oauthCodes, type Environment } from "@/db/schema";
import { randomToken, sha256 } from "@/server/platform/security/secrets";
import { CODE_TTL_SECONDS } from "./lifetimes";

// Issues a single-use authorization code (10 minutes) and stores only its hash. Account creation
// issues one with no redirect URI: creating the account counts as the grant (docs/oauth.md#accounts-created-by-an-app).
// The authorization page issues one bound to the redirect URI and PKCE challenge of its request.
export async function issueCode(
  db: Executor,
  input: {
    environment: Environment;
    credentialId: number;
    accountId: number;
    origin: "account_creation" | "authorization";
    redirectUri?: string | null;
    codeChallenge?: string | null;
    codeChallengeMethod?: "S256" | null;
    scopes?: string;
  },
): Promise<string> {
  const code = randomToken();
  await db.insert(oauthCodes).values({
    environment: input.environment,
    codeHash: sha256(code),
    credentialId: input.credentialId,
    accountId: input.accountId,
    origin: input.origin,
    redirectUri: input.redirectUri ?? null,
    codeChallenge: input.codeChallenge ?? null,
    codeChallengeMethod: input.codeChallengeMethod ?? null,
    scopes: input.scopes ?? "",
    expiresAt: new Date(Date.now() + CODE_TTL_SECONDS * 1000),
  });
  return code;
}
