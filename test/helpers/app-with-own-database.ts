import path from "node:path";
import { expect, inject } from "vitest";
import { newAccountBody, request, type Credentials } from "./api";
import { freshDatabase } from "./fresh-database";
import { startHttpsReceiver, type HttpsReceiver } from "./https-receiver";
import { runScript, startApp, type RunningApp } from "./processes";

// An app of a test file's own on a database of its own, for tests whose notifications and
// deliveries must not mix with any other test's, or that restart or reconfigure the app.

/** A partner app as the operator CLI prints it (`app:create --json`). */
type PartnerApp = { sandbox: Credentials; signingSecret: string };

export type AppWithOwnDatabase = {
  app: RunningApp;
  receiver: HttpsReceiver;
  partnerApp: PartnerApp;
  stop(): Promise<void>;
};

/**
 * Creates a database (a fresh one on the suite's PostgreSQL, else the app's own embedded one in its
 * data dir), starts the app on it with `extraEnv` (startApp: it migrates the database at start), an
 * HTTPS receiver that trusts the app's test CA, and makes one partner app with the operator CLI.
 * stop() stops the receiver and the app, and drops the database.
 */
export async function startAppWithOwnDatabase(
  name: string,
  extraEnv: Record<string, string>,
  nodeFlags: string[] = [],
): Promise<AppWithOwnDatabase> {
  const database = inject("embedded") ? null : await freshDatabase(inject("databaseUrl"), name.replace(/-/g, "_"));
  const app = await startApp({ name, databaseUrl: database?.url, extraEnv, nodeFlags });
  const ca = path.join(app.dataDir, "test-ca");
  const receiver = await startHttpsReceiver({
    ca: { dir: ca, certFile: path.join(ca, "ca.pem"), keyFile: path.join(ca, "ca.key") },
  });
  const partnerApp = JSON.parse(
    (
      await runScript(
        "app-create.ts",
        ["--name", `Own app ${name}`, "--redirect-uri", "https://partner.example/callback", "--json"],
        app.env,
      )
    ).stdout,
  ) as PartnerApp;
  return {
    app,
    receiver,
    partnerApp,
    async stop() {
      await receiver.close();
      await app.stop();
      await database?.drop();
    },
  };
}

/**
 * The partner's way to a driver account on that app: a client-credentials token, an account
 * created with it, and the account's code exchanged for the driver's token.
 */
export async function partnerAccount({
  app,
  partnerApp,
}: {
  app: { baseUrl: string };
  partnerApp: { sandbox: Credentials };
}): Promise<{ clientToken: string; accountId: number; token: string }> {
  const tokenUrl = `${app.baseUrl}/sandbox/oauth/token`;
  const { clientId, clientSecret } = partnerApp.sandbox;
  const headers = {
    "Content-Type": "application/x-www-form-urlencoded",
    Authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`,
  };
  const client = await request("POST", tokenUrl, { body: "grant_type=client_credentials", headers });
  expect(client.status, client.text).toBe(200);
  const clientToken = client.body.access_token as string;
  const account = await request("POST", `${app.baseUrl}/sandbox/api/account/`, {
    token: clientToken,
    json: newAccountBody(),
  });
  expect(account.status, account.text).toBe(200);
  const exchange = await request("POST", tokenUrl, {
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: account.body.account.accessToken.code,
    }).toString(),
    headers,
  });
  expect(exchange.status, exchange.text).toBe(200);
  return { clientToken, accountId: account.body.account.id as number, token: exchange.body.access_token as string };
}
