import { db } from "@/db/client";
import type { Environment } from "@/db/schema";
import type { Principal } from "@/server/api-auth/principal";
import { credentialsOf, findOwnedApp } from "./app-queries";
import { ApiError } from "@/common/http/errors";
import { notOwned } from "./errors";

// The console acts as the app itself, as a client-credentials token of the app would, so the
// same services (accounts, vehicles, subscriptions, notifications, telemetry) apply the same
// visibility rules, and each account's grant decides what the partner sees of it (its location
// precision, its scopes: docs/console.md). No token exists (`via: "console"`); the services
// read the app, credential and environment only.
export async function consolePrincipal(
  partnerUserId: number,
  appId: number,
  environment: Environment,
): Promise<Principal> {
  const app = await findOwnedApp(db(), { partnerUserId, appId });
  if (!app) throw notOwned();
  const credential = (await credentialsOf(db(), { appId })).find((c) => c.environment === environment);
  if (!credential)
    throw new ApiError(
      "CANNOTPERSIST",
      "This app has no production credentials yet: confirm the partner obligations first.",
    );
  return {
    environment,
    via: "console",
    appId,
    credentialId: credential.id,
    clientId: credential.clientId,
    dataProvider: app.dataProvider,
    kind: "client",
    accountId: null,
    grant: null,
  };
}
