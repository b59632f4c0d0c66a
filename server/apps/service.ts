import { and, eq } from "drizzle-orm";
import { db, type Executor, type Tx } from "@/db/client";
import { appCredentials, appSigningSecrets, partnerApps, type Environment } from "@/db/schema";
import { newSigningSecret } from "@/server/delivery/signing";
import { randomToken, sha256 } from "@/server/platform/security/secrets";
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
export type CreatedApp = {
  id: number;
  name: string;
  sandbox: Credentials;
  production: Credentials;
  signingSecret: string;
};

const prefixes: Record<Environment, string> = { sandbox: "wl_sbx_", production: "wl_live_" };

function newCredentials(environment: Environment): Credentials {
  return { clientId: prefixes[environment] + randomToken().slice(0, 22), clientSecret: randomToken("wls_") };
}

// Creates a partner app with its sandbox and production credential pairs in one transaction (the CLI).
// The client secrets are returned once; only their hashes are kept. The webhook signing secret is
// kept as is (the service signs with it), per app for both environments.
export async function createApp(input: NewAppInput): Promise<CreatedApp> {
  return db().transaction(async (tx) => {
    const app = await insertApp(tx, input);
    return { ...app, production: await issueCredential(tx, { appId: app.id, environment: "production" }) };
  });
}

// The app row, its sandbox credential and its webhook signing secret. The partner console stops here: production credentials
// come only after the partner confirms the obligations (issueCredential; docs/console.md#credentials).
export async function insertApp(tx: Tx, input: NewAppInput): Promise<Omit<CreatedApp, "production">> {
  assertRedirectUris(input.redirectUris);
  const sandbox = input.sandboxCredentials ?? newCredentials("sandbox");
  const [app] = await tx
    .insert(partnerApps)
    .values({
      name: input.name,
      ownerName: input.ownerName ?? null,
      redirectUris: input.redirectUris,
      isPublic: input.isPublic ?? false,
      dataProvider: input.dataProvider ?? false,
    })
    .returning({ id: partnerApps.id });
  await tx.insert(appCredentials).values({
    appId: app!.id,
    environment: "sandbox",
    clientId: sandbox.clientId,
    secretHash: sha256(sandbox.clientSecret),
  });
  const signingSecret = newSigningSecret();
  await tx.insert(appSigningSecrets).values({ appId: app!.id, secret: signingSecret });
  return { id: app!.id, name: input.name, sandbox, signingSecret };
}

/** Issues an app's credential pair for one environment (it must not have one yet). The secret is returned once. */
export async function issueCredential(
  tx: Executor,
  { appId, environment }: { appId: number; environment: Environment },
): Promise<Credentials> {
  const credentials = newCredentials(environment);
  await tx
    .insert(appCredentials)
    .values({ appId, environment, clientId: credentials.clientId, secretHash: sha256(credentials.clientSecret) });
  return credentials;
}

/** A new client secret for an existing credential: the old one stops working at once (only the hash is kept). */
export async function rotateClientSecret(
  tx: Executor,
  { appId, environment }: { appId: number; environment: Environment },
): Promise<Credentials | null> {
  const clientSecret = randomToken("wls_");
  const [row] = await tx
    .update(appCredentials)
    .set({ secretHash: sha256(clientSecret) })
    .where(and(eq(appCredentials.appId, appId), eq(appCredentials.environment, environment)))
    .returning({ clientId: appCredentials.clientId });
  return row ? { clientId: row.clientId, clientSecret } : null;
}
