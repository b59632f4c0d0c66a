import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "@/test/helpers/api";
import { waitFor } from "@/test/helpers/delivery-fixture";
import { verifyWebhook } from "@/test/helpers/https-receiver";
import { startAppWithOwnDatabase, type AppWithOwnDatabase } from "@/test/helpers/app-with-own-database";
import { partnerAccount } from "@/test/helpers/partner-account";
import { dataSet, waypoint } from "@/test/helpers/telemetry";

// An account's notification history outlives the vehicle it names (docs/subscriptions.md#who-keeps-
// which-notifications): a partner subscribed to VEHICLECREATED and VEHICLEDELETED on an account
// gets both webhooks even when the vehicle is deleted before the first was sent. The service runs
// with its delivery worker off until the vehicle is gone, then restarts with it on, so the
// deliveries made before the deletion are surely still pending when it happens. One delivery at a
// time (DELIVERY_CONCURRENCY=1): jobs are then sent in the order they were queued.

let own: AppWithOwnDatabase;

beforeAll(async () => {
  own = await startAppWithOwnDatabase("account-history", { WORKER: "off", DELIVERY_CONCURRENCY: "1" });
}, 240_000);

afterAll(async () => {
  await own?.stop();
});

describe("account notifications after their vehicle is deleted", () => {
  it("VEHICLECREATED and VEHICLEDELETED both stay listed and both signed webhooks arrive in order; the vehicle's own subscription's notification is gone", async () => {
    const { app, receiver, partnerApp } = own;
    const api = `${app.baseUrl}/sandbox/api`;
    const { clientToken, accountId, token } = await partnerAccount(own);

    const subscribe = async (path: string, hook: string) => {
      const res = await request("POST", `${api}${path}`, {
        token: clientToken,
        json: { postUrl: `${receiver.url}${hook}` },
      });
      expect(res.status, res.text).toBe(200);
      return res.body.subscription.id as number;
    };
    const created = await subscribe(`/account/${accountId}/eventSubscription/VEHICLECREATED/`, "/hooks/account");
    const deleted = await subscribe(`/account/${accountId}/eventSubscription/VEHICLEDELETED/`, "/hooks/account");
    // A vehicle type subscribed on the account applies to the vehicle; its notifications are the account's too.
    const accountWaypoints = await subscribe(
      `/account/${accountId}/eventSubscription/WAYPOINT/`,
      "/hooks/account-waypoint",
    );

    const vehicle = await request("POST", `${api}/vehicle/`, { token, json: { label: "Short-lived car" } });
    expect(vehicle.status, vehicle.text).toBe(200);
    const vehicleId = vehicle.body.vehicle.vehicleId as number;
    const vehicleWaypoints = await subscribe(`/vehicle/${vehicleId}/eventSubscription/WAYPOINT/`, "/hooks/vehicle");
    const posted = await request("POST", `${api}/vehicle/${vehicleId}/dataSet/`, {
      token,
      json: dataSet(new Date(Date.now() - 60_000), "RUNNING", [waypoint(39.9612, -82.9988)]),
    });
    expect(posted.status, posted.text).toBe(200);
    const before = await request(
      "GET",
      `${api}/vehicle/${vehicleId}/eventSubscription/${vehicleWaypoints}/eventNotification/`,
      { token: clientToken },
    );
    expect(before.body.notifications, before.text).toHaveLength(1);

    const removed = await request("DELETE", `${api}/vehicle/${vehicleId}`, { token });
    expect(removed.status, removed.text).toBe(200);

    // The account's list holds its three, each still naming the vehicle; the vehicle's own is gone.
    const list = await request("GET", `${api}/account/${accountId}/eventNotification/`, { token: clientToken });
    expect(list.status, list.text).toBe(200);
    const notes = list.body.notifications as { id: number; subscriptionId: number; _type: string; vehicleId: number }[];
    expect(notes.map((n) => [n._type, n.subscriptionId]).sort()).toEqual(
      [
        ["VEHICLECREATED", created],
        ["VEHICLEDELETED", deleted],
        ["WAYPOINT", accountWaypoints],
      ].sort(),
    );
    expect(notes.every((n) => n.vehicleId === vehicleId)).toBe(true);
    const createdNote = notes.find((n) => n._type === "VEHICLECREATED")!;
    const one = await request("GET", `${api}/account/${accountId}/eventNotification/VEHICLECREATED/${createdNote.id}`, {
      token: clientToken,
    });
    expect(one.status, one.text).toBe(200);
    expect(one.body.notification).toMatchObject({ id: createdNote.id, vehicleId, accountId });
    const bySubscription = await request(
      "GET",
      `${api}/account/${accountId}/eventSubscription/${accountWaypoints}/eventNotification/`,
      { token: clientToken },
    );
    expect(bySubscription.body.notifications, bySubscription.text).toHaveLength(1);
    // Under the vehicle's path there is nothing to read: the vehicle is gone.
    expect(
      (await request("GET", `${api}/vehicle/${vehicleId}/eventNotification/`, { token: clientToken })).status,
    ).toBe(404);

    await app.restart({ WORKER: "on" });

    const hooks = await waitFor(
      async () =>
        receiver.on("/hooks/account").length >= 2 &&
        receiver.on("/hooks/account-waypoint").length >= 1 &&
        receiver.on("/hooks/account"),
      {
        what: "the account's webhooks",
        timeoutMs: 30_000,
      },
    );
    const bodies = hooks.map((hook) => verifyWebhook(partnerApp.signingSecret, hook) as Record<string, unknown>);
    expect(bodies.map((b) => b._type)).toEqual(["VEHICLECREATED", "VEHICLEDELETED"]);
    expect(bodies[0]).toMatchObject({ subscriptionId: created, accountId, vehicleId, id: createdNote.id });
    expect(bodies[1]).toMatchObject({ subscriptionId: deleted, accountId, vehicleId });
    expect(hooks.map((hook) => hook.headers["webhook-id"])).toEqual(bodies.map((b) => String(b.id)));
    const waypointHook = verifyWebhook(partnerApp.signingSecret, receiver.on("/hooks/account-waypoint")[0]!) as Record<
      string,
      unknown
    >;
    expect(waypointHook).toMatchObject({ subscriptionId: accountWaypoints, vehicleId, _type: "WAYPOINT" });
    // The vehicle subscription's delivery was queued before the deletion, so before the
    // VEHICLEDELETED one: with one delivery at a time it would have arrived by now.
    expect(receiver.on("/hooks/vehicle")).toEqual([]);
  }, 120_000);
});
