import { db } from "@/db/client";
import { appCredentials, appSigningSecrets, partnerApps, type Environment } from "@/db/schema";
import { newSigningSecret } from "@/server/delivery/signing";
import { randomToken, sha256 } from "@/server/security/secrets";
import { assertRedirectUris } from "./redirect-uris";

export type NewAppInput = {
  name: string;
  /** Who publishes the app, as the consent screen shows it. */
  ownerName?: string | null;
  redirectUris: string[];
  isPublic?: boolean;
  dataProvider?: boolean;
  /** Fixed sandbox credentials, for the demo seed only. */
  sandboxCredentials?: { clientId: string; clientSecret: string };
};

export type Credentials = { clientId: string; clientSecret: string };
/** signingSecret: the Standard Webhooks key (`whsec_…`) notifications of both environments are signed with. */
export type CreatedApp = { id: number; name: string; sandbox: Credentials; production: Credentials; signingSecret: string };

const prefixes: Record<Environment, string> = { sandbox: "wl_sbx_", production: "wl_live_" };

function newCredentials(environment: Environment): Credentials {
  return { clientId: prefixes[environment] + randomToken().slice(0, 22), clientSecret: randomToken("wls_") };
}

// Creates a partner app with its sandbox and production credential pairs in one transaction.
// The client secrets are returned once; only their hashes are kept. The webhook signing secret is
// kept as is (the service signs with it), per app for both environments.
export async function createApp(input: NewAppInput): Promise<CreatedApp> {
  assertRedirectUris(input.redirectUris);
  const sandbox = input.sandboxCredentials ?? newCredentials("sandbox");
  const production = newCredentials("production");
  return db().transaction(async (tx) => {
    const [app] = await tx
      .insert(partnerApps)
      .values({ name: input.name, ownerName: input.ownerName ?? null, redirectUris: input.redirectUris, isPublic: input.isPublic ?? false, dataProvider: input.dataProvider ?? false })
      .returning({ id: partnerApps.id });
    await tx.insert(appCredentials).values([
      { appId: app!.id, environment: "sandbox", clientId: sandbox.clientId, secretHash: sha256(sandbox.clientSecret) },
      { appId: app!.id, environment: "production", clientId: production.clientId, secretHash: sha256(production.clientSecret) },
    ]);
    const signingSecret = newSigningSecret();
    await tx.insert(appSigningSecrets).values({ appId: app!.id, secret: signingSecret });
    return { id: app!.id, name: input.name, sandbox, production, signingSecret };
  });
}
