import type { GrantScope } from "@/common/oauth/grant-scope";
import type { Environment } from "@/db/schema";

// Who is calling: an app acting for itself (client-credentials token) or for one account (user
// token), and through what (`via`). Every ownership check starts from this.
export type Principal = {
  environment: Environment;
  appId: number;
  credentialId: number;
  clientId: string;
  dataProvider: boolean;
} & Caller &
  (
    | { kind: "client"; accountId: null; grant: null }
    /** `grant`: what the driver granted the app, read with the token (docs/oauth.md#scopes). */
    | { kind: "user"; accountId: number; grant: GrantScope }
  );

/**
 * What the call came through. Only an API request carries a token; the others are our own
 * surfaces acting as an app or an account, and the services branch on which (never on a forged id):
 * - `console`: the partner console acting as the app: each account as its driver granted the app;
 * - `driver-site`: the signed-in driver, as the owner of the account;
 * - `simulator`: a simulation run posting the data of the app (or account) that started it;
 * - `demo`: the demo's set-up, acting as the demo app.
 * A device reporting through the device gateway is no app at all: it is a DeviceCaller.
 */
type Caller = { via: "token"; tokenId: number } | { via: "console" | "driver-site" | "simulator" | "demo" };

/**
 * A device reporting through the device gateway (server/devices/), for the vehicle whose deviceId
 * it sends, in the environment of the listener that received it: no app, token or account stands
 * behind it, so it is not a Principal, and ingest takes it on a path of its own
 * (server/telemetry/ingest/locked.ts) that reads nothing back.
 */
export type DeviceCaller = { via: "device"; environment: Environment };
