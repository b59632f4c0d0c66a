import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { newAccountBody, request } from "../helpers/api";
import { startHttpsReceiver, verifyWebhook, type HttpsReceiver } from "../helpers/https-receiver";
import { launchService, runScript, type RunningService } from "../helpers/processes";
import { dataSet, waypoint } from "../helpers/telemetry";
import { waitFor } from "../helpers/delivery-fixture";
import { freshDatabase } from "../helpers/fresh-database";

// The whole way, as a partner sees it: a WAYPOINT subscription made through the API, a data set
// POSTed, and the signed webhook arriving at the partner's HTTPS receiver. A service of its own
// (with the delivery worker on), on a database of its own, so no other test's notifications mix in.

let service: RunningService;
let receiver: HttpsReceiver;
let dropDatabase: (() => Promise<void>) | null = null;
let app: { sandbox: { clientId: string; clientSecret: string }; signingSecret: string };

beforeAll(async () => {
  let databaseUrl: string | undefined;
  if (!inject("embedded")) {
    const database = await freshDatabase(inject("databaseUrl"), "delivery_e2e");
    databaseUrl = database.url;
    dropDatabase = database.drop;
  }
  service = await launchService({ name: "delivery-e2e", databaseUrl, extraEnv: { WORKER: "on" } });
  receiver = await startHttpsReceiver({ ca: { dir: path.join(service.dataDir, "test-ca"), certFile: path.join(service.dataDir, "test-ca", "ca.pem"), keyFile: path.join(service.dataDir, "test-ca", "ca.key") } });
  app = JSON.parse((await runScript("app-create.ts", ["--name", "Delivery E2E", "--redirect-uri", "https://partner.example/callback", "--json"], service.env)).stdout);
}, 240_000);

afterAll(async () => {
  await receiver?.close();
  await service?.stop();
  await dropDatabase?.();
});

const basic = () => `Basic ${Buffer.from(`${app.sandbox.clientId}:${app.sandbox.clientSecret}`).toString("base64")}`;

describe("notification delivery, end to end", () => {
  it("data set POST → WAYPOINT subscription fires → the signed webhook reaches the partner", async () => {
    const api = `${service.baseUrl}/sandbox/api`;
    const form = { "Content-Type": "application/x-www-form-urlencoded", Authorization: basic() };
    const client = await request("POST", `${service.baseUrl}/sandbox/oauth/token`, { body: "grant_type=client_credentials", headers: form });
    expect(client.status, client.text).toBe(200);
    const account = await request("POST", `${api}/account/`, { token: client.body.access_token, json: newAccountBody() });
    expect(account.status, account.text).toBe(200);
    const exchange = await request("POST", `${service.baseUrl}/sandbox/oauth/token`, { body: new URLSearchParams({ grant_type: "authorization_code", code: account.body.account.accessToken.code }).toString(), headers: form });
    expect(exchange.status, exchange.text).toBe(200);
    const token = exchange.body.access_token as string;
    const vehicle = await request("POST", `${api}/vehicle/`, { token, json: { label: "Delivery car" } });
    expect(vehicle.status, vehicle.text).toBe(200);
    const vehicleId = vehicle.body.vehicle.vehicleId as number;

    const sub = await request("POST", `${api}/vehicle/${vehicleId}/eventSubscription/WAYPOINT/`, { token, json: { postUrl: `${receiver.url}/wayline/hook`, postHeaders: { "X-Tenant": "acme" } } });
    expect(sub.status, sub.text).toBe(200);

    const at = new Date(Date.now() - 60_000);
    const posted = await request("POST", `${api}/vehicle/${vehicleId}/dataSet/`, { token, json: dataSet(at, "RUNNING", [waypoint(39.9612, -82.9988)]) });
    expect(posted.status, posted.text).toBe(200);

    const hook = await waitFor(async () => receiver.on("/wayline/hook")[0], { what: "the webhook", timeoutMs: 30_000 });
    expect(hook.headers["x-tenant"]).toBe("acme");
    const body = verifyWebhook(app.signingSecret, hook) as Record<string, unknown>;
    expect(body).toMatchObject({ subscriptionId: sub.body.subscription.id, vehicleId, _type: "WAYPOINT", httpStatusCode: 0, recordedWaypoint: { latitude: 39.9612, longitude: -82.9988 } });
    expect(hook.headers["webhook-id"]).toBe(String(body.id));

    // Later reads show the receiver's answer.
    const read = await waitFor(async () => {
      const r = await request("GET", `${api}/vehicle/${vehicleId}/eventNotification/${body.id}`, { token });
      return r.body?.notification?.httpStatusCode === 200 && r;
    }, { what: "httpStatusCode 200 on the read" });
    expect(read.body.notification.id).toBe(body.id);
  }, 60_000);
});
