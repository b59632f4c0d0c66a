import type { GrantScope } from "./grant-scope";
import type { Environment } from "@/db/schema";

// Who is calling: an app acting for itself (client-credentials token) or for one account (user
// token). Every ownership check starts from this.
export type Principal = {
  environment: Environment;
  tokenId: number;
  appId: number;
  credentialId: number;
  clientId: string;
  dataProvider: boolean;
  /**
   * The partner console acting as the app: no token stands behind it (tokenId 0), yet it sees each
   * account as the driver granted the app, as the app's client-credentials token would
   * (server/oauth/grant-view.ts).
   */
  viaConsole?: true;
} & (
  | { kind: "client"; accountId: null; grant: null }
  /** `grant`: what the driver granted the app, read with the token (docs/oauth.md#scopes). */
  | { kind: "user"; accountId: number; grant: GrantScope }
);
