// @module-tag embedded
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "@/test/helpers/api";
import { verifyWebhook } from "@/test/helpers/https-receiver";
import { partnerAccount } from "@/test/helpers/partner-account";
import { partnerOnPool, type PartnerOnPool } from "@/test/helpers/pool";
import { dataSet, waypoint } from "@/test/helpers/telemetry";
import { waitFor } from "@/test/helpers/delivery-fixture";

// The whole way, as a partner sees it: a WAYPOINT subscription made through the API, a data set
// POSTed, and the signed webhook arriving at the partner's HTTPS receiver. On the pool's shared app
// with the delivery worker on, with a partner app and a receiver of its own, so no other test's
// notifications mix in.

let own: PartnerOnPool;

beforeAll(async () => {
  own = await partnerOnPool("worker", "delivery-e2e");
});

afterAll(async () => {
  await own?.stop();
});

describe("notification delivery, end to end", () => {
  it("data set POST → WAYPOINT subscription fires → the signed webhook reaches the partner", async () => {
    const { app, receiver, partnerApp } = own;
    const api = `${app.baseUrl}/sandbox/api`;
    const { token } = await partnerAccount(own);
    const vehicle = await request("POST", `${api}/vehicle/`, { token, json: { label: "Delivery car" } });
    expect(vehicle.status, vehicle.text).toBe(200);
    const vehicleId = vehicle.body.vehicle.vehicleId as number;

    const sub = await request("POST", `${api}/vehicle/${vehicleId}/eventSubscription/WAYPOINT/`, {
      token,
      json: { postUrl: `${receiver.url}/wayline/hook`, postHeaders: { "X-Tenant": "acme" } },
    });
    expect(sub.status, sub.text).toBe(200);

    const at = new Date(Date.now() - 60_000);
    const posted = await request("POST", `${api}/vehicle/${vehicleId}/dataSet/`, {
      token,
      json: dataSet(at, "RUNNING", [waypoint(39.9612, -82.9988)]),
    });
    expect(posted.status, posted.text).toBe(200);

    const hook = await waitFor(async () => receiver.on("/wayline/hook")[0], { what: "the webhook", timeoutMs: 30_000 });
    expect(hook.headers["x-tenant"]).toBe("acme");
    const body = verifyWebhook(partnerApp.signingSecret, hook) as Record<string, unknown>;
    expect(body).toMatchObject({
      subscriptionId: sub.body.subscription.id,
      vehicleId,
      _type: "WAYPOINT",
      httpStatusCode: 0,
      recordedWaypoint: { latitude: 39.9612, longitude: -82.9988 },
    });
    expect(hook.headers["webhook-id"]).toBe(String(body.id));

    // Later reads show the receiver's answer.
    const read = await waitFor(
      async () => {
        const r = await request("GET", `${api}/vehicle/${vehicleId}/eventNotification/${body.id}`, { token });
        return r.body?.notification?.httpStatusCode === 200 && r;
      },
      { what: "httpStatusCode 200 on the read" },
    );
    expect(read.body.notification.id).toBe(body.id);
  });
});
