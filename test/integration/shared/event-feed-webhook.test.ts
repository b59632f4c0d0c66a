// @module-tag embedded
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "@/test/helpers/api";
import { verifyWebhook } from "@/test/helpers/https-receiver";
import { partnerAccount } from "@/test/helpers/partner-account";
import { partnerOnPool, type PartnerOnPool } from "@/test/helpers/pool";
import { dataSet, waypoint } from "@/test/helpers/telemetry";
import { waitFor } from "@/test/helpers/delivery-fixture";

// One id for push and pull (docs/event-feed.md#one-id-push-and-pull): the webhook-id of an event's
// delivery is its eventId in the feed and on notification reads. On the pool's shared app with the
// delivery worker on, with a partner app (its own feed) and a real HTTPS receiver of its own.

let own: PartnerOnPool;

beforeAll(async () => {
  own = await partnerOnPool("worker", "event-feed-webhook");
});

afterAll(async () => {
  await own?.stop();
});

describe("event feed and webhooks", () => {
  it("a delivery's webhook-id equals the event's eventId in GET /eventFeed/ and on the notification read", async () => {
    const { app, receiver, partnerApp } = own;
    const api = `${app.baseUrl}/sandbox/api`;
    const { token } = await partnerAccount(own);
    const vehicle = await request("POST", `${api}/vehicle/`, { token, json: { label: "Push and pull" } });
    expect(vehicle.status, vehicle.text).toBe(200);
    const vehicleId = vehicle.body.vehicle.vehicleId as number;
    const sub = await request("POST", `${api}/vehicle/${vehicleId}/eventSubscription/WAYPOINT/`, {
      token,
      json: { postUrl: `${receiver.url}/feed/hook` },
    });
    expect(sub.status, sub.text).toBe(200);
    const posted = await request("POST", `${api}/vehicle/${vehicleId}/dataSet/`, {
      token,
      json: dataSet(new Date(Date.now() - 60_000), "RUNNING", [waypoint(39.9612, -82.9988)]),
    });
    expect(posted.status, posted.text).toBe(200);

    const hook = await waitFor(async () => receiver.on("/feed/hook")[0], { what: "the webhook", timeoutMs: 30_000 });
    const body = verifyWebhook(partnerApp.signingSecret, hook) as Record<string, unknown>;

    // The feed hands out an event once every transaction older than it has ended on the whole PostgreSQL
    // server (server/notifications/feed.ts): another file's write still running can hold it back a moment
    // after the webhook went out (a CI run read an empty feed here). Read until it is there.
    const feed = await waitFor(
      async () => {
        const res = await request("GET", `${api}/eventFeed/?vehicleId=${vehicleId}`, { token });
        expect(res.status, res.text).toBe(200);
        return res.body.events.length > 0 && res;
      },
      { what: "the event in the feed", timeoutMs: 15_000, intervalMs: 50 },
    );
    expect(feed.body.events).toHaveLength(1);
    const event = feed.body.events[0];
    expect(hook.headers["webhook-id"]).toBe(event.eventId);
    expect(body.eventId).toBe(event.eventId);
    // The feed's event is the webhook's body plus its cursor.
    const { cursor, ...rest } = event;
    expect(typeof cursor).toBe("string");
    expect(rest).toEqual(body);

    const read = await request("GET", `${api}/vehicle/${vehicleId}/eventNotification/${body.id}`, { token });
    expect(read.status, read.text).toBe(200);
    expect(read.body.notification.eventId).toBe(hook.headers["webhook-id"]);
  });
});
