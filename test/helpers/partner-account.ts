import { expect } from "vitest";
import { newAccountBody, request, type Credentials } from "./api";

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
