import path from "node:path";
import { expect, inject } from "vitest";
import { newAccountBody, request } from "./api";
import { freshDatabase } from "./fresh-database";
import { startHttpsReceiver, type HttpsReceiver } from "./https-receiver";
import { launchService, runScript, type RunningService } from "./processes";

// A service of a test file's own, on a database of its own (a fresh one on the suite's PostgreSQL,
// else a new embedded one), with a real HTTPS receiver that trusts the service's test CA and one
// partner app made by the operator CLI: for tests whose notifications and deliveries must not mix
// with any other test's.

export type OwnService = {
  service: RunningService;
  receiver: HttpsReceiver;
  app: { sandbox: { clientId: string; clientSecret: string }; signingSecret: string };
  stop(): Promise<void>;
};

export async function startOwnService(
  name: string,
  extraEnv: Record<string, string>,
  nodeFlags: string[] = [],
): Promise<OwnService> {
  const database = inject("embedded") ? null : await freshDatabase(inject("databaseUrl"), name.replace(/-/g, "_"));
  const service = await launchService({ name, databaseUrl: database?.url, extraEnv, nodeFlags });
  const ca = path.join(service.dataDir, "test-ca");
  const receiver = await startHttpsReceiver({
    ca: { dir: ca, certFile: path.join(ca, "ca.pem"), keyFile: path.join(ca, "ca.key") },
  });
  const app = JSON.parse(
    (
      await runScript(
        "app-create.ts",
        ["--name", `Own service ${name}`, "--redirect-uri", "https://partner.example/callback", "--json"],
        service.env,
      )
    ).stdout,
  );
  return {
    service,
    receiver,
    app,
    async stop() {
      await receiver.close();
      await service.stop();
      await database?.drop();
    },
  };
}

/**
 * The partner's way to a driver account on that service: a client-credentials token, an account
 * created with it, and the account's code exchanged for the driver's token.
 */
export async function partnerAccount({
  service,
  app,
}: OwnService): Promise<{ clientToken: string; accountId: number; token: string }> {
  const tokenUrl = `${service.baseUrl}/sandbox/oauth/token`;
  const headers = {
    "Content-Type": "application/x-www-form-urlencoded",
    Authorization: `Basic ${Buffer.from(`${app.sandbox.clientId}:${app.sandbox.clientSecret}`).toString("base64")}`,
  };
  const client = await request("POST", tokenUrl, { body: "grant_type=client_credentials", headers });
  expect(client.status, client.text).toBe(200);
  const clientToken = client.body.access_token as string;
  const account = await request("POST", `${service.baseUrl}/sandbox/api/account/`, {
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
